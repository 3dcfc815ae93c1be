// selectForRequest with a scripted LLM function: one call, lenient reading, unknown ids dropped,
// and the keyword fallback for no LLM, a throw, a timeout, garbage and a 10 MB answer; the
// caller's cancel; the checks of the request (not a string, empty, longer than maxRequestChars,
// with its context). What the model is sent and how its answer is read in detail:
// select_model.test.ts; the keyword path and nothing fitting: select_keywords.test.ts.
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createResolver,
  selectForRequest,
  type SelectModel,
} from "../../../lib/mod.ts";
import type { ChatMessage } from "../../../lib/catalog/mod.ts";
import { startDemo, startLab } from "../_select_catalogs.ts";

const catalog = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [{
    name: "lookup_sample",
    description: "Find a sample's FASTQ files by sample id",
    handler: () => [],
  }],
});

/** A scripted model that records its calls. */
function scripted(answer: (messages: ChatMessage[]) => Promise<string> | string) {
  const calls: ChatMessage[][] = [];
  const llm: SelectModel = async (messages) => {
    calls.push(messages);
    return await answer(messages);
  };
  return { llm, calls };
}

test("one call whose prompt holds the catalog, the context and the request", async () => {
  const { llm, calls } = scripted(() =>
    JSON.stringify({
      complexity: "complex",
      skills: ["samtools"],
      tools: ["lookup_sample"],
      needs_external: false,
      reasoning: "Sort and index with samtools after finding the files.",
    })
  );
  const selection = await selectForRequest(catalog, "sort and index the BAM of sample S1", {
    llm,
    context: "The user works on a cluster.",
  });
  assert.equal(calls.length, 1);
  const [system, user] = calls[0];
  assert.equal(system.role, "system");
  assert.match(
    system.content,
    /<catalog>\n[\s\S]*\nsamtools: [\s\S]*\nlookup_sample: [\s\S]*<\/catalog>/,
  );
  assert.match(user.content, /<context>\nThe user works on a cluster\.\n<\/context>/);
  assert.match(user.content, /<request>\nsort and index the BAM of sample S1\n<\/request>/);
  assert.deepEqual(
    { ...selection, listing: undefined },
    {
      via: "llm",
      complexity: "complex",
      skills: ["samtools"],
      tools: ["lookup_sample"],
      needsExternal: false,
      reasoning: "Sort and index with samtools after finding the files.",
      diagnostics: [],
      held: [],
      listing: undefined,
    },
  );
  assert.ok(selection.listing!.tokens > 100);
});

test("fences, prose and trailing commas are read; unknown ids dropped; kinds sorted; caps hold", async () => {
  const { llm } = scripted(() =>
    'Sure! Here is my choice:\n```json\n{\n  "skills": ["samtools", "made-up", "lookup_sample", "bwa", "gatk", "star",],\n  "tools": ["bcftools"],\n}\n```\nHope that helps.'
  );
  const selection = await selectForRequest(catalog, "align and call variants", { llm });
  assert.equal(selection.via, "llm");
  assert.deepEqual(selection.skills, ["samtools", "bwa", "gatk"]);
  assert.deepEqual(selection.tools, ["lookup_sample"]);
  assert.equal(selection.complexity, "simple");
  assert.ok(selection.diagnostics.some((d) => /"made-up", which is not in the catalog/.test(d)));
  assert.ok(selection.diagnostics.some((d) => /"bcftools" is past the cap of 3 skills/.test(d)));
});

test("an answer naming 10,000 unknown ids gives a capped list of diagnostics", async () => {
  const unknown = Array.from({ length: 10_000 }, (_, i) => `made-up-${i}`);
  const { llm } = scripted(() => JSON.stringify({ skills: ["samtools", ...unknown], tools: [] }));
  const selection = await selectForRequest(catalog, "sort my BAM", { llm });
  assert.equal(selection.via, "llm");
  assert.deepEqual(selection.skills, ["samtools"]);
  assert.ok(selection.diagnostics.length <= 20, `${selection.diagnostics.length} diagnostics`);
  assert.equal(selection.diagnostics.filter((d) => /not in the catalog/.test(d)).length, 11);
  assert.match(
    selection.diagnostics.at(-1)!,
    /^… and 9,?990 more ids not in the catalog; dropped$/,
  );
});

test("no LLM: keyword ranking returns its top candidates in rank order", async () => {
  const selection = await selectForRequest(catalog, "sort and index my BAM file");
  assert.equal(selection.via, "keyword");
  assert.equal(selection.fallback?.reason, "no-llm");
  assert.equal(selection.skills[0], "samtools");
  assert.ok(selection.skills.length >= 1 && selection.skills.length <= 3);
  const scores = selection.skills.map((id) => selection.scores![id]);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  const sample = await selectForRequest(catalog, "find the FASTQ files of sample S1");
  assert.ok(sample.tools.includes("lookup_sample"));
});

const FALLBACKS: Array<[string, () => Promise<string>, string, RegExp]> = [
  ["garbage", () => Promise.resolve("I think samtools would be good."), "unusable", /no JSON/],
  ["a JSON array", () => Promise.resolve('["samtools"]'), "unusable", /no JSON object/],
  ["a wrong shape", () => Promise.resolve('{"skills": "samtools"}'), "unusable", /wrong shape/],
  ["only unknown ids", () => Promise.resolve('{"skills": ["nope"]}'), "unusable", /unknown/],
  ["a throw", () => Promise.reject(new Error("rate limited")), "error", /rate limited/],
  [
    "a 10 MB answer",
    () => Promise.resolve(`{"skills":["samtools"]}${" ".repeat(10 << 20)}`),
    "unusable",
    /10,485,783 characters/,
  ],
  ["a timeout", () => new Promise<string>(() => {}), "timeout", /did not answer within 50 ms/],
];

for (const [what, answer, reason, message] of FALLBACKS) {
  test(`${what} falls back to keywords`, async () => {
    const selection = await selectForRequest(catalog, "sort and index my BAM file", {
      llm: answer,
      timeoutMs: 50,
    });
    assert.equal(selection.via, "keyword");
    assert.equal(selection.fallback?.reason, reason);
    assert.match(selection.fallback!.message, message);
    assert.equal(selection.skills[0], "samtools");
  });
}

test("a 1 MB request is refused with a clear error, before any call", async () => {
  const { llm, calls } = scripted(() => "{}");
  await assert.rejects(
    selectForRequest(catalog, "x".repeat(1 << 20), { llm }),
    (error: Error) =>
      error instanceof RangeError && /1,048,576 characters; at most 100,000/.test(error.message),
  );
  assert.equal(calls.length, 0);
  await assert.rejects(selectForRequest(catalog, "  "), TypeError);
});

test("a caller's abort is not swallowed by the fallback", async () => {
  const controller = new AbortController();
  const pending = selectForRequest(catalog, "sort a BAM", {
    llm: () => new Promise<string>(() => {}),
    signal: controller.signal,
  });
  controller.abort(new Error("user left"));
  await assert.rejects(pending, /user left/);
});

test("the model's call hears the caller's cancel at once, not at its own timeout", async () => {
  const controller = new AbortController();
  let called!: (signal: AbortSignal) => void;
  const heard = new Promise<AbortSignal>((done) => (called = done));
  const pending = selectForRequest(catalog, "sort a BAM", {
    llm: (_messages, { signal }) => {
      called(signal);
      return new Promise<string>(() => {});
    },
    signal: controller.signal,
    timeoutMs: 60_000,
  });
  pending.catch(() => {});
  const signal = await heard;
  controller.abort(new Error("user left"));
  assert.equal(signal.aborted, true, "the model's signal is aborted with the caller's");
  await assert.rejects(pending, /user left/);
});

test("a selection that is answered leaves no timer behind (a CLI exits when it is done)", async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  const { llm } = scripted(() => '{"skills": ["samtools"], "tools": []}');
  const before = timers();
  const selection = await selectForRequest(catalog, "sort a BAM", { llm, timeoutMs: 600_000 });
  assert.deepEqual(selection.skills, ["samtools"]);
  assert.equal(timers(), before, "the model's timeout is cleared once it answered");
});

test("the catalog in the selection prompt respects the budget", async () => {
  const { llm, calls } = scripted(() => '{"skills": ["samtools"], "tools": []}');
  const selection = await selectForRequest(catalog, "sort a BAM", { llm, budget: 250 });
  assert.ok(selection.listing!.tokens <= 250);
  assert.ok(selection.listing!.omitted > 0);
  assert.match(calls[0][0].content, /^samtools:/m, "the relevant entry stays");
  assert.ok(selection.diagnostics.some((d) => /left out of the prompt/.test(d)));
});

let demo: Catalog;
let lab: Catalog;
const closing: Array<() => Promise<void>> = [];
before(async () => {
  const d = await startDemo();
  const l = await startLab();
  closing.push(d.close, l.close);
  ({ catalog: demo } = d);
  ({ catalog: lab } = l);
});
after(async () => {
  for (const close of closing) await close();
});

describe("the request (demo catalog)", () => {
  test("empty, or longer than maxRequestChars (request or context), is refused", async () => {
    await assert.rejects(
      selectForRequest(demo, "  "),
      (error: Error) =>
        error instanceof TypeError &&
        error.message === "selectForRequest: the request must be a non-empty string",
    );
    await assert.rejects(
      selectForRequest(demo, "short", { context: "x".repeat(1_234), maxRequestChars: 1_000 }),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          "selectForRequest: the context is 1,234 characters; at most 1,000 are accepted (option maxRequestChars)",
    );
    const at = await selectForRequest(demo, "x".repeat(10), { maxRequestChars: 10 });
    assert.equal(at.via, "keyword");
  });
});

describe("the request (lab catalog)", () => {
  test("not a string, or a request longer than maxRequestChars, is refused", async () => {
    for (const request of [42, undefined]) {
      await assert.rejects(
        selectForRequest(lab, request as unknown as string),
        (error: Error) =>
          error instanceof TypeError &&
          error.message === "selectForRequest: the request must be a non-empty string",
      );
    }
    await assert.rejects(
      selectForRequest(lab, "x".repeat(1_234), { maxRequestChars: 1_000 }),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          "selectForRequest: the request is 1,234 characters; at most 1,000 are accepted (option maxRequestChars)",
    );
  });
});
