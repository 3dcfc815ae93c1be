// selectForRequest's rules where the first mutation run of `catalog` found them untested
// (issue 19), with the model as the plain function SelectModel is, over a real catalog of a real
// MCP server on 127.0.0.1 and the built-in skills: the prompt's caps and request wrapping, bare
// tool names read as ids and their capped diagnostics, answers that are not text or too long,
// answers that say nothing fits, the reasons given, the keyword path's wording, and the checks
// of the request.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  selectForRequest,
  type SelectModel,
} from "../../lib/mod.ts";
import { startToolServer, type TestTool } from "./_servers.ts";
import { model } from "./_selections.ts";

const TOOLS: TestTool[] = Array.from({ length: 12 }, (_, i) => ({
  name: `t${i}`,
  description: `Tool number ${i} of the demo server`,
  inputSchema: { type: "object" },
}));
let server: Awaited<ReturnType<typeof startToolServer>>;
let catalog: Catalog;
before(async () => {
  server = await startToolServer(TOOLS);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "demo", url: server.url });
  catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
});
after(async () => {
  catalog.dispose();
  await server.close();
});

describe("the prompt", () => {
  test("states the default caps (3 skills, 8 tools); the request alone when there is no context", async () => {
    const { llm, calls } = model('{"skills":["samtools"]}');
    await selectForRequest(catalog, "sort a BAM", { llm });
    const [system, user] = calls[0];
    assert.match(system.content, /best first, at most 3\.\n/);
    assert.match(
      system.content,
      /Functions groups the assistant should be able to call, best first, at most 8\. /,
    );
    assert.equal(user.content, "<request>\nsort a BAM\n</request>");
    await selectForRequest(catalog, "sort a BAM", { llm, maxSkills: 1, maxTools: 2, context: "c" });
    assert.match(calls[1][0].content, /best first, at most 1\.\n/);
    assert.match(calls[1][0].content, /best first, at most 2\. /);
    assert.equal(
      calls[1][1].content,
      "<context>\nc\n</context>\n\n<request>\nsort a BAM\n</request>",
    );
  });
});

describe("the model's ids", () => {
  test("bare tool names are read as ids: ten listed, the rest counted", async () => {
    const names = TOOLS.map((t) => t.name);
    const { llm } = model(JSON.stringify({ tools: names }));
    const selection = await selectForRequest(catalog, "use the tools", { llm, maxTools: 20 });
    assert.deepEqual(selection.tools, names.map((n) => `demo__${n}`));
    assert.deepEqual(selection.diagnostics, [
      ...names.slice(0, 10).map((n) => `Read "${n}" as the tool "demo__${n}"`),
      "… and 2 more names read as tool ids",
    ]);
  });

  test("past the cap: ten listed, the rest counted, per kind", async () => {
    const ids = TOOLS.map((t) => `demo__${t.name}`);
    const { llm } = model(JSON.stringify({ tools: ids }));
    const selection = await selectForRequest(catalog, "use the tools", { llm, maxTools: 1 });
    assert.deepEqual(selection.tools, ["demo__t0"]);
    assert.deepEqual(selection.diagnostics, [
      ...ids.slice(1, 11).map((id) => `"${id}" is past the cap of 1 tools; dropped`),
      "… and 1 more tools past the cap of 1; dropped",
    ]);
  });

  test("every id unknown: the answer is unusable, the keyword path answers with the reasons", async () => {
    const { llm } = model('{"skills":["nope"],"tools":["nada"]}');
    const selection = await selectForRequest(catalog, "sort and index a BAM file", { llm });
    assert.equal(selection.via, "keyword");
    assert.deepEqual(selection.fallback, {
      reason: "unusable",
      message: "The LLM's answer was unusable: every id it named is unknown to the catalog",
    });
    assert.deepEqual(selection.diagnostics, [
      'The model named "nope", which is not in the catalog; dropped',
      'The model named "nada", which is not in the catalog; dropped',
    ]);
  });
});

describe("unusable answers", () => {
  test("an answer that is not text", async () => {
    const selection = await selectForRequest(catalog, "sort a BAM", { llm: model(42).llm });
    assert.deepEqual(selection.fallback, {
      reason: "unusable",
      message: "The LLM's answer was unusable: it is a number, not text",
    });
  });

  test("an answer over maxAnswerChars is not read; one at it is", async () => {
    const answer = '{"skills":["samtools"]}';
    const over = await selectForRequest(catalog, "sort a BAM", {
      llm: model(answer).llm,
      maxAnswerChars: answer.length - 1,
    });
    assert.deepEqual(over.fallback, {
      reason: "unusable",
      message: `The LLM's answer was unusable: it is ${answer.length} characters, over the ${
        answer.length - 1
      } read`,
    });
    const at = await selectForRequest(catalog, "sort a BAM", {
      llm: model(answer).llm,
      maxAnswerChars: answer.length,
    });
    assert.equal(at.via, "llm");
  });

  test("a model that fails or is late: the keyword path, saying why", async () => {
    const failing: SelectModel = () => Promise.reject(new Error(`boom ${"x".repeat(600)}`));
    const failed = await selectForRequest(catalog, "sort a BAM", { llm: failing });
    assert.equal(failed.fallback?.reason, "error");
    assert.equal(failed.fallback?.message, `The LLM failed: boom ${"x".repeat(495)}`);
    const late: SelectModel = () => new Promise(() => {});
    const timedOut = await selectForRequest(catalog, "sort a BAM", { llm: late, timeoutMs: 50 });
    assert.deepEqual(timedOut.fallback, {
      reason: "timeout",
      message: "The LLM timed out: the LLM did not answer within 50 ms",
    });
  });
});

describe("nothing fits", () => {
  test("answers that only say nothing are an empty selection by the model", async () => {
    for (const answer of ["", "none", "[]", "{ }", "Nothing.", '"null"', "N/A", " `none` "]) {
      const selection = await selectForRequest(catalog, "hello there", { llm: model(answer).llm });
      assert.equal(selection.via, "llm", JSON.stringify(answer));
      assert.deepEqual([selection.skills, selection.tools], [[], []]);
      assert.equal(
        selection.reason,
        "Nothing in the catalog fits: the model chose no skill and no tool.",
      );
    }
  });

  test("the model's reasoning, cut at 300 characters, is part of the reason", async () => {
    const reasoning = `Small talk. ${"r".repeat(400)}`;
    const { llm } = model(JSON.stringify({ skills: [], tools: [], reasoning }));
    const selection = await selectForRequest(catalog, "hello there", { llm });
    assert.equal(
      selection.reason,
      `Nothing in the catalog fits: the model chose no skill and no tool (${
        reasoning.slice(0, 300)
      }).`,
    );
    assert.equal(selection.reasoning, reasoning);
  });

  test("the keyword path: no shared word, or shared words without evidence", async () => {
    const none = await selectForRequest(catalog, "zzqx wvvy");
    const n = catalog.entries.length;
    assert.equal(
      none.reasoning,
      `No catalog entry shares a keyword with the request (${n} entries).`,
    );
    assert.equal(
      none.reason,
      `Nothing in the catalog fits: no entry of ${n} shares a word with the request.`,
    );
    assert.equal(none.complexity, "simple");
    const weak = await selectForRequest(catalog, "number");
    assert.deepEqual([weak.skills, weak.tools], [[], []]);
    assert.match(
      weak.reason!,
      /^Nothing in the catalog fits: \d+ entries share words with the request, but none holds its specific words in a name, tag, example task or description \(best: [\w-]+, evidence [\d.]+ of 2 needed\)\.$/,
    );
  });

  test("the keyword path reads steps as complex and gives each pick its score", async () => {
    const selection = await selectForRequest(catalog, "sort a BAM file then index it");
    assert.equal(selection.complexity, "complex");
    assert.equal(selection.skills[0], "samtools");
    assert.match(
      selection.reasoning,
      /^Keyword ranking \(BM25\+\) of \d+ entries; kept those whose name, tags, example tasks or description hold the request's specific words \(evidence 2 or more\) and scoring at least 30 % of the best \(samtools\)\.$/,
    );
    const score = selection.scores!.samtools;
    assert.equal(score, Math.round(score * 100) / 100);
    assert.ok(score > 0);
    const simple = await selectForRequest(catalog, "sort a BAM file");
    assert.equal(simple.complexity, "simple");
  });
});

describe("the request", () => {
  test("empty, or longer than maxRequestChars (request or context), is refused", async () => {
    await assert.rejects(
      selectForRequest(catalog, "  "),
      (error: Error) =>
        error instanceof TypeError &&
        error.message === "selectForRequest: the request must be a non-empty string",
    );
    await assert.rejects(
      selectForRequest(catalog, "short", { context: "x".repeat(1_234), maxRequestChars: 1_000 }),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          "selectForRequest: the context is 1,234 characters; at most 1,000 are accepted (option maxRequestChars)",
    );
    const at = await selectForRequest(catalog, "x".repeat(10), { maxRequestChars: 10 });
    assert.equal(at.via, "keyword");
  });
});
