// evaluateSelection and parseLabelledRequests: the figures of a labelled set, run through the
// selection a user runs (keywords, or a model), and every miss; the arithmetic exactly, with
// selections scripted through the public `select` option (every figure known in advance); the
// group a label compares (skills, tools, MCP tools too, or every pick), an entry whose id is
// `none`; parseLabelledRequests's comments, blank, CRLF and indented lines, and each refusal.
// Real catalogs: built-in skills, host functions and an MCP server on 127.0.0.1 (_labkit.ts).
// Over 300 lines: one behaviour, the figures of a labelled set and how each request is judged.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createResolver,
} from "../../../lib/mod.ts";
import { evaluateSelection, parseLabelledRequests } from "../../../lib/catalog/mod.ts";
import { scripted } from "../_selections.ts";
import { startLabkit } from "../_labkit.ts";

const catalog = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [{ name: "echo", description: "Echoes back the text", handler: ({ text }) => text }],
});
const count = (text: string) => Math.ceil(text.length / 4);

const SET = parseLabelledRequests([
  '{"request": "sort and index my BAM file", "expected": ["samtools"]}',
  "// a comment, then a blank line",
  "",
  '{"request": "trim adapters from my paired-end reads", "expected": ["cutadapt", "fastp", "trim-galore"], "kind": "x"}',
  '{"request": "call the echo tool with hello", "expected": "echo"}',
  '{"request": "what is the weather in Paris tomorrow?", "expected": "none"}',
  '{"request": "align PacBio HiFi reads", "expected": ["bwa"]}',
].join("\n"));

test("parseLabelledRequests reads JSON Lines; a bare id becomes a list", () => {
  assert.equal(SET.length, 5);
  assert.deepEqual(SET[2], { request: "call the echo tool with hello", expected: ["echo"] });
  assert.deepEqual(SET[3].expected, "none");
});

test("parseLabelledRequests names the line and the field of a bad line", () => {
  assert.throws(() => parseLabelledRequests('\n{"request": "x"}'), /line 2: "expected" must be/);
  assert.throws(() => parseLabelledRequests("{oops"), /line 1: not JSON/);
  assert.throws(() => parseLabelledRequests('{"expected": "none"}'), /line 1: "request" must/);
});

test("keyword evaluation: top-1, top-3, MRR, none precision and recall, tokens, misses", async () => {
  const report = await evaluateSelection(catalog, SET, { countTokens: count });
  assert.deepEqual(report.labelled, { ids: 4, none: 1 });
  const byRequest = Object.fromEntries(report.results.map((r) => [r.request, r]));
  assert.equal(byRequest["sort and index my BAM file"].rank, 1);
  assert.deepEqual(byRequest["call the echo tool with hello"].ranked, ["echo"]); // tools compared
  assert.equal(byRequest["what is the weather in Paris tomorrow?"].hit, true);
  const bwa = byRequest["align PacBio HiFi reads"];
  assert.equal(bwa.hit, false); // labelled wrong on purpose: minimap2 answers
  assert.equal(report.top1, 3 / 4);
  assert.ok(report.top3 >= 3 / 4 && report.top3 <= 1);
  assert.ok(report.mrr >= 3 / 4 && report.mrr <= report.top3);
  assert.equal(report.nonePrecision, 1);
  assert.equal(report.noneRecall, 1);
  assert.deepEqual(report.misses.map((m) => m.request), ["align PacBio HiFi reads"]);
  assert.ok(byRequest["sort and index my BAM file"].promptTokens > 100); // the samtools body
  assert.equal(byRequest["what is the weather in Paris tomorrow?"].promptTokens, 0);
});

test("LLM evaluation: the model's picks are measured, and its listing counts as prompt tokens", async () => {
  const report = await evaluateSelection(catalog, SET, {
    countTokens: count,
    llm: (messages) =>
      Promise.resolve(
        /weather/.test(messages[1].content)
          ? "none"
          : /echo/.test(messages[1].content)
          ? '{"skills": ["samtools"], "tools": ["echo"]}'
          : '{"skills": ["samtools"], "tools": []}',
      ),
  });
  assert.ok(report.results.every((r) => r.via === "llm"));
  // samtools for everything: right for the BAM; the echo request is judged on its tools.
  assert.equal(report.results[2].rank, 1);
  assert.equal(report.top1, 2 / 4);
  assert.equal(report.noneRecall, 1);
  assert.ok(report.results.every((r) => r.promptTokens > 1000)); // the listing in each prompt
  // A request labelled with a tool that got a skill anyway is counted.
  assert.equal(report.unwantedSkills, 1);
});

/** What every scripted selection of this file reports of its listing. */
const LISTED = { listing: { tokens: 7, omitted: 0 } };

/** Built-in skills and `lookup`: the catalog of the exact figures below. */
const withLookup = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [{ name: "lookup", description: "Look a sample up", handler: () => "S1" }],
});

test("parseLabelledRequests: comments, blank and CRLF lines skipped; each refusal exact", () => {
  assert.deepEqual(
    parseLabelledRequests(
      '// c\r\n\r\n  {"request": "a", "expected": "x"}  \r\n{"request":"b","expected":"none"}',
    ),
    [{ request: "a", expected: ["x"] }, { request: "b", expected: "none" }],
  );
  const refused = (text: string, message: string) =>
    assert.throws(
      () => parseLabelledRequests(text),
      (error: Error) => error instanceof SyntaxError && error.message === message,
    );
  for (const value of ["null", "[1]", "3", '"text"']) {
    refused(`\n${value}`, 'line 2: expected a JSON object with "request" and "expected"');
  }
  refused('{"request": " ", "expected": "none"}', 'line 1: "request" must be a non-empty string');
  refused('{"request": 1, "expected": "none"}', 'line 1: "request" must be a non-empty string');
  for (const expected of ['""', "[]", '[""]', "[1]", '["a", 2]', "{}", "3"]) {
    refused(
      `{"request": "r", "expected": ${expected}}`,
      'line 1: "expected" must be "none" or a non-empty list of entry ids',
    );
  }
  assert.throws(() => parseLabelledRequests("{oops"), /^SyntaxError: line 1: not JSON \(.+\)$/);
});

test("the figures of a set, each request judged in its label's group", async () => {
  const report = await evaluateSelection(
    withLookup,
    [
      { request: "r1", expected: ["samtools"] }, // skills [bwa, samtools]: rank 2
      { request: "r2", expected: ["lookup"] }, // tools [lookup] ranked alone: rank 1, a skill unwanted
      { request: "r3", expected: "none" }, // nothing: a hit
      { request: "r4", expected: "none" }, // a tool: a miss
      { request: "r5", expected: ["samtools", "lookup"] }, // mixed: skills then tools ranked
      { request: "r6", expected: ["bwa"] }, // nothing: rank 0
      { request: "r7", expected: ["samtools"] }, // third
      { request: "r8", expected: ["samtools"] }, // fourth: not in the top 3
    ],
    {
      countTokens: (text) => text.length,
      select: scripted({
        r1: { skills: ["bwa", "samtools"] },
        r2: { skills: ["fastqc"], tools: ["lookup"] },
        r4: { tools: ["lookup"] },
        r5: { tools: ["lookup"] },
        r7: { skills: ["bwa", "fastqc", "samtools"] },
        r8: { skills: ["bwa", "fastqc", "bowtie2", "samtools"] },
      }, LISTED),
    },
  );
  assert.deepEqual(report.results.map((r) => [r.request, r.rank, r.hit]), [
    ["r1", 2, false],
    ["r2", 1, true],
    ["r3", 0, true],
    ["r4", 0, false],
    ["r5", 1, true],
    ["r6", 0, false],
    ["r7", 3, false],
    ["r8", 4, false],
  ]);
  assert.deepEqual(report.results[1].ranked, ["lookup"]);
  assert.deepEqual(report.results[1].selected, ["fastqc", "lookup"]);
  assert.deepEqual(report.results[4].ranked, ["lookup"]);
  assert.equal(report.requests, 8);
  assert.deepEqual(report.labelled, { ids: 6, none: 2 });
  assert.equal(report.top1, 2 / 6);
  assert.equal(report.top3, 4 / 6);
  assert.equal(report.mrr, (1 / 2 + 1 + 1 + 0 + 1 / 3 + 1 / 4) / 6);
  assert.equal(report.nonePrecision, 1 / 2); // r3 and r6 got nothing; r3 is labelled none
  assert.equal(report.noneRecall, 1 / 2);
  assert.equal(report.unwantedSkills, 1);
  assert.deepEqual(report.misses.map((r) => r.request), ["r1", "r2", "r4", "r6", "r7", "r8"]);
  // Prompt tokens: the listing (7) plus each pick's definition, counted by characters here.
  const lookup = withLookup.get("lookup")!;
  const lookupTokens = JSON.stringify({
    name: "lookup",
    description: lookup.description,
    parameters: lookup.inputSchema ?? {},
  }).length;
  assert.equal(report.results[3].promptTokens, 7 + lookupTokens);
  assert.equal(report.results[2].promptTokens, 7);
  const bwa = await withLookup.loadSkill("bwa");
  const samtools = await withLookup.loadSkill("samtools");
  const skillTokens = (hit: typeof bwa, id: string) =>
    `${withLookup.get(id)!.description}\n${hit.skill.body}`.length;
  assert.equal(
    report.results[0].promptTokens,
    7 + skillTokens(bwa, "bwa") + skillTokens(samtools, "samtools"),
  );
  const mean = report.results.reduce((s, r) => s + r.promptTokens, 0) / 8;
  assert.equal(report.promptTokens, Math.round(mean));
});

test("an id the catalog lacks costs nothing; no listing counts zero; an empty set scores 1", async () => {
  const report = await evaluateSelection(withLookup, [{ request: "r", expected: ["ghost"] }], {
    countTokens: (text) => text.length,
    select: () =>
      Promise.resolve({
        via: "keyword",
        complexity: "simple",
        skills: [],
        tools: ["ghost"],
        needsExternal: false,
        reasoning: "",
        diagnostics: [],
      }),
  });
  assert.deepEqual(
    [report.results[0].ranked, report.results[0].rank, report.results[0].promptTokens],
    [["ghost"], 1, 0],
  );
  assert.equal(report.results[0].via, "keyword");
  const empty = await evaluateSelection(withLookup, []);
  assert.deepEqual(
    [empty.requests, empty.top1, empty.top3, empty.mrr, empty.nonePrecision, empty.noneRecall],
    [0, 1, 1, 1, 1, 1],
  );
  assert.equal(empty.promptTokens, 0);
});

test("by default: selectForRequest's keyword path, and the built-in token counter", async () => {
  const report = await evaluateSelection(withLookup, [
    { request: "sort and index my BAM file", expected: ["samtools"] },
  ]);
  assert.equal(report.results[0].via, "keyword");
  assert.equal(report.results[0].rank, 1);
  // The keyword path sends no listing: the tokens are the picks' definitions, counted for real.
  const tokens = report.results[0].promptTokens;
  assert.ok(tokens > 100 && tokens < 20_000, String(tokens));
});

describe("the group a label compares", () => {
  let catalog: Catalog;
  let close: () => Promise<void>;
  before(async () => ({ catalog, close } = await startLabkit()));
  after(() => close());

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
});
