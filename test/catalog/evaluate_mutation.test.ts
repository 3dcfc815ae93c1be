// evaluateSelection's arithmetic and parseLabelledRequests's refusals, exactly, where the first
// mutation run of `catalog` left them loose (issue 19). Selections are scripted through the
// public `select` option, so every figure is known in advance; the catalog is real (built-in
// skills and a host function).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createBuiltinSource, createCatalog, createResolver } from "../../lib/mod.ts";
import { evaluateSelection, parseLabelledRequests } from "../../lib/catalog/mod.ts";
import { scripted } from "./_selections.ts";

/** What every scripted selection of this file reports of its listing. */
const LISTED = { listing: { tokens: 7, omitted: 0 } };

const catalog = await createCatalog({
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
    catalog,
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
  const lookup = catalog.get("lookup")!;
  const lookupTokens = JSON.stringify({
    name: "lookup",
    description: lookup.description,
    parameters: lookup.inputSchema ?? {},
  }).length;
  assert.equal(report.results[3].promptTokens, 7 + lookupTokens);
  assert.equal(report.results[2].promptTokens, 7);
  const bwa = await catalog.loadSkill("bwa");
  const samtools = await catalog.loadSkill("samtools");
  const skillTokens = (hit: typeof bwa, id: string) =>
    `${catalog.get(id)!.description}\n${hit.skill.body}`.length;
  assert.equal(
    report.results[0].promptTokens,
    7 + skillTokens(bwa, "bwa") + skillTokens(samtools, "samtools"),
  );
  const mean = report.results.reduce((s, r) => s + r.promptTokens, 0) / 8;
  assert.equal(report.promptTokens, Math.round(mean));
});

test("an id the catalog lacks costs nothing; no listing counts zero; an empty set scores 1", async () => {
  const report = await evaluateSelection(catalog, [{ request: "r", expected: ["ghost"] }], {
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
  const empty = await evaluateSelection(catalog, []);
  assert.deepEqual(
    [empty.requests, empty.top1, empty.top3, empty.mrr, empty.nonePrecision, empty.noneRecall],
    [0, 1, 1, 1, 1, 1],
  );
  assert.equal(empty.promptTokens, 0);
});

test("by default: selectForRequest's keyword path, and the built-in token counter", async () => {
  const report = await evaluateSelection(catalog, [
    { request: "sort and index my BAM file", expected: ["samtools"] },
  ]);
  assert.equal(report.results[0].via, "keyword");
  assert.equal(report.results[0].rank, 1);
  // The keyword path sends no listing: the tokens are the picks' definitions, counted for real.
  const tokens = report.results[0].promptTokens;
  assert.ok(tokens > 100 && tokens < 20_000, String(tokens));
});
