// evaluateSelection and parseLabelledRequests: the figures of a labelled set, run through the
// selection a user runs (keywords, or a model), and every miss.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createBuiltinSource, createCatalog, createResolver } from "../../lib/mod.ts";
import { evaluateSelection, parseLabelledRequests } from "../../lib/catalog/mod.ts";

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
