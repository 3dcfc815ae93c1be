// The fourth mutation run of `catalog` (commit 53cba08): survivors of evaluate.ts, find_tools.ts,
// llm.ts, llm_error.ts and tokens.ts. evaluateSelection's group of comparison (skills, tools, or
// every pick) with real MCP tools beside host functions and built-in skills, and an entry whose
// id is `none`; parseLabelledRequests on indented lines and lists of ids; findTools's "why"
// (the query's first spelling of a word, the server's name as a keyword), its evidence floor at
// exactly 2 and its rounded score; the adapters' refusals of a missing model, word for word; what
// isLlmError takes for an LlmError (not a caller's cancel); and countTokens' fallback to the
// estimate when the tokenizer cannot load. A real tool server on 127.0.0.1 and a fake model.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../../lib/mod.ts";
import {
  countTokens,
  estimateTokens,
  evaluateSelection,
  findTools,
  parseLabelledRequests,
} from "../../lib/catalog/mod.ts";
import {
  createAnthropicModel,
  createOpenAiModel,
  isLlmError,
  LlmError,
} from "../../lib/catalog/llm/llm.ts";
import { loaders } from "../../lib/_runtime_loaders.ts";
import { startFakeLlm, startToolServer } from "./_servers.ts";
import { scripted } from "./_selections.ts";

let server: Awaited<ReturnType<typeof startToolServer>>;
let catalog: Catalog;
before(async () => {
  server = await startToolServer([{
    name: "convert_units",
    description: "Convert a quantity between units of length and mass",
    inputSchema: { type: "object", properties: { value: { type: "number" } } },
  }]);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "labkit", url: server.url });
  catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    functions: [
      { name: "lookup", description: "Look a sample up", handler: () => "S1" },
      { name: "none", description: "Do nothing at all", handler: () => "" },
      {
        name: "lookup_sample",
        description: "Find a sample's FASTQ reads by sample id",
        handler: () => [],
      },
    ],
    approvals: { storage: createMemoryStorage(), remote: "require" },
  });
  await catalog.approve(["labkit__convert_units"]);
});
after(async () => {
  catalog.dispose();
  await server.close();
});

test("parseLabelledRequests: blank and indented comment lines skipped; a list of ids kept", () => {
  assert.deepEqual(
    parseLabelledRequests(
      '   \n\t// a note, indented\n{"request": "a", "expected": ["samtools", "bwa"]}\n \t \n',
    ),
    [{ request: "a", expected: ["samtools", "bwa"] }],
  );
});

test("each request is judged in its label's group: skills, tools (MCP tools too) or every pick", async () => {
  assert.equal(catalog.get("labkit__convert_units")?.kind, "tool");
  assert.equal(catalog.get("lookup")?.kind, "function");
  const report = await evaluateSelection(
    catalog,
    [
      { request: "skill", expected: ["samtools"] },
      { request: "none, both picked", expected: "none" },
      { request: "mixed", expected: ["samtools", "labkit__convert_units"] },
      { request: "mcp tool", expected: ["labkit__convert_units"] },
    ],
    {
      countTokens: (text) => text.length,
      select: scripted({
        "skill": { skills: ["samtools"], tools: ["lookup"] },
        "none, both picked": { skills: ["bwa"], tools: ["lookup"] },
        "mixed": { skills: ["bwa", "samtools"], tools: ["labkit__convert_units"] },
        "mcp tool": { skills: ["samtools"], tools: ["labkit__convert_units"] },
      }),
    },
  );
  assert.deepEqual(report.results.map((r) => [r.request, r.ranked, r.rank, r.hit]), [
    // Labelled with a skill: only the skills picked are compared.
    ["skill", ["samtools"], 1, true],
    // Labelled "none": every pick is shown (and it is a miss).
    ["none, both picked", ["bwa", "lookup"], 0, false],
    // A skill and a tool labelled: every pick, skills first.
    ["mixed", ["bwa", "samtools", "labkit__convert_units"], 2, false],
    // Labelled with an MCP tool: only the tools picked.
    ["mcp tool", ["labkit__convert_units"], 1, true],
  ]);
  // A skill attached where the label names none ("none"; the MCP tool alone) is unwanted; where
  // the label names a skill among others, a skill is wanted.
  assert.equal(report.unwantedSkills, 2);
  assert.deepEqual(report.misses.map((r) => r.request), [
    "none, both picked",
    "mixed",
    "mcp tool",
  ]);
});

test('an entry whose id is `none` is not the label "none"', async () => {
  const report = await evaluateSelection(
    catalog,
    [
      { request: "nothing fits", expected: "none" },
      { request: "the none function", expected: ["none"] },
    ],
    {
      countTokens: (text) => text.length,
      select: scripted({
        "nothing fits": { tools: ["none"] },
        "the none function": { tools: ["none"] },
      }),
    },
  );
  assert.deepEqual(report.results.map((r) => [r.request, r.ranked, r.rank, r.hit]), [
    ["nothing fits", ["none"], 0, false],
    ["the none function", ["none"], 1, true],
  ]);
  assert.equal(report.top1, 1);
  assert.equal(report.noneRecall, 0);
});

test("findTools: why names the query's first spelling of a word, and the server as a keyword", () => {
  const [found] = findTools(catalog, "labkit: convert Units to another unit");
  assert.equal(found.id, "labkit__convert_units");
  assert.equal(found.why, "name: convert, units; keywords: labkit");
});

test("findTools: an entry with exactly the evidence floor (2) is found", async () => {
  // A host function with a description only: a word there that no other entry holds weighs like a
  // tag, 2 (its specificity is 1). Over the built-ins, "fastq" alone no longer is that word: dozens
  // of skills hold it, and a lone common word is not enough (issue 47).
  const small = await createCatalog({
    functions: [
      { name: "lookup_sample", description: "Find a sample's FASTQ reads", handler: () => [] },
      { name: "other", description: "Send a message", handler: () => "" },
    ],
  });
  const [hit] = small.rank("fastq", { kinds: ["function"] });
  assert.equal(hit.entry.id, "lookup_sample");
  assert.equal(hit.evidence, 2);
  assert.deepEqual(findTools(small, "fastq").map((f) => f.id), ["lookup_sample"]);
  small.dispose();
});

test("findTools: the score is rank's BM25+ score rounded to two decimals", () => {
  const query = "convert units of length";
  const ranked = catalog.rank(query, { limit: 100, kinds: ["tool", "function"] });
  const found = findTools(catalog, query);
  assert.ok(found.length > 0);
  for (const f of found) {
    const score = ranked.find((r) => r.entry.id === f.id)!.score;
    assert.equal(f.score, Math.round(score * 100) / 100);
  }
  assert.notEqual(found[0].score, Math.round(found[0].score), "a score with decimals");
});

test("the adapters refuse a missing or non-string model, naming themselves", () => {
  const refused = (make: () => unknown, message: string) =>
    assert.throws(make, (error: Error) => error instanceof TypeError && error.message === message);
  for (const options of [undefined, {}, { model: 5 }, { model: "" }]) {
    refused(
      () => createOpenAiModel(options as never),
      'createOpenAiModel: "model" must be a non-empty string',
    );
    refused(
      () => createAnthropicModel(options as never),
      'createAnthropicModel: "model" must be a non-empty string',
    );
  }
});

test("LlmError keeps its cause; isLlmError takes only LlmErrors, not a caller's cancel", async () => {
  const cause = new Error("socket hang up");
  const error = new LlmError("openai cannot be reached", {
    code: "network",
    provider: "openai",
    cause,
  });
  assert.equal(error.cause, cause);
  assert.equal(isLlmError(error), true);
  assert.equal(isLlmError(new Error("plain")), false);
  assert.equal(isLlmError(new TypeError("bad")), false);
  assert.equal(isLlmError({ name: "LlmError", message: "not an Error" }), false);
  // A call its caller cancels rejects with the caller's reason, which is no LlmError.
  let release!: () => void;
  const late = new Promise<void>((done) => (release = done));
  const fake = await startFakeLlm(() => late.then(() => ({ body: "{}" })));
  try {
    const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });
    const controller = new AbortController();
    const call = llm([{ role: "user", content: "hi" }], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user gave up")), 50);
    const caught = await call.then(() => undefined, (e: unknown) => e);
    assert.ok(caught instanceof Error && caught.message === "the user gave up", String(caught));
    assert.equal(isLlmError(caught), false);
  } finally {
    release();
    await fake.close();
  }
});

test("countTokens falls back to estimateTokens when the tokenizer cannot load", async () => {
  // A fresh copy of the module (its first load is still ahead), with a loader that fails, as in
  // a bundle without the tokenizer's files.
  const saved = loaders.tokenizer;
  loaders.tokenizer = () => Promise.reject(new Error("no tokenizer here"));
  try {
    const fresh = await import(`../../lib/catalog/build/tokens.ts?fallback=${Date.now()}`);
    const text = "Sort and index a BAM file";
    assert.equal(await fresh.countTokens(text), estimateTokens(text));
    assert.equal(estimateTokens(text), 7);
  } finally {
    loaders.tokenizer = saved;
  }
  assert.equal(await countTokens("Sort and index a BAM file"), 6);
});
