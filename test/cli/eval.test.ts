// `skillmux eval <file>` as a child process: a labelled set through the selection `select` runs
// (keywords, or a model behind a fake OpenAI API), the figures, every miss, and bad input.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { openAiAnswer, startFakeLlm } from "../catalog/_servers.ts";
import { sub, tempHome } from "./_helpers.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let file: string;

before(async () => {
  home = await tempHome();
  llm = await startFakeLlm(() => openAiAnswer('{"skills":["samtools"],"tools":[]}'));
  file = join(home.dir, "set.jsonl");
  await writeFile(
    file,
    [
      '{"request": "sort and index my BAM file", "expected": ["samtools"]}',
      '{"request": "align PacBio HiFi reads", "expected": ["minimap2"]}',
      '{"request": "what is the weather in Paris tomorrow?", "expected": "none"}',
      '{"request": "call the echo tool with hello", "expected": "none"}',
    ].join("\n"),
  );
});
after(async () => {
  await llm.close();
  await home.close();
});

test("eval --json: the figures of a keyword selection", async () => {
  const { code, stdout, stderr } = await sub(["eval", file, "--json"], home.env);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(stdout);
  assert.deepEqual(
    [report.requests, report.top1, report.top3, report.noneRecall, report.nonePrecision],
    [4, 1, 1, 1, 1],
  );
  assert.ok(report.results.every((r: { via: string }) => r.via === "keyword"));
  assert.ok(report.promptTokens > 0);
});

test("eval with a model: the same figures from the model's picks, misses listed in text", async () => {
  const env = { ...home.env, OPENAI_API_KEY: "sk-eval" };
  const args = ["eval", file, "--llm", "openai", "--model", "m", "--base-url", `${llm.url}/v1`];
  const { code, stdout, stderr } = await sub(args, env);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^4 requests \(2 with ids, 2 "none"\), selected via llm$/m);
  assert.match(stdout, /^top-1 50\.0 % {2}top-3 50\.0 % {2}MRR 0\.500$/m);
  assert.match(stdout, /^"none" precision 100\.0 % {2}recall 0\.0 %/m);
  assert.match(stdout, /^Misses \(3\):$/m);
  assert.match(stdout, /"align PacBio HiFi reads" → samtools; expected minimap2/);
  assert.match(stdout, /"call the echo tool with hello" → samtools; expected none/);
});

test("eval: a bad line names the file, the line and the field; a missing file says so", async () => {
  const bad = join(home.dir, "bad.jsonl");
  await writeFile(bad, '{"request": "x", "expected": []}\n');
  const wrong = await sub(["eval", bad], home.env);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /bad\.jsonl: line 1: "expected" must be "none" or a non-empty list/);
  const missing = await sub(["eval", join(home.dir, "nope.jsonl")], home.env);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /Cannot read .*nope\.jsonl/);
});

test("eval warns of expected ids the catalog does not have (a typo would count as a miss)", async () => {
  const typo = join(home.dir, "typo.jsonl");
  await writeFile(typo, '{"request": "sort and index my BAM file", "expected": ["samtool"]}\n');
  const { code, stdout, stderr } = await sub(["eval", typo], home.env);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /typo\.jsonl: "samtool" is not a usable entry of this catalog/);
  assert.match(stdout, /^top-1 0\.0 %/m);
});

test("--feedback <file>: select, catalog and eval rank with another file's labelled requests; without it, as before", async () => {
  const told = join(home.dir, "told.jsonl");
  await writeFile(
    told,
    '{"request": "trim the adapters off my paired-end reads", "expected": ["fastp"]}\n' +
      '{"request": "no skill for this one", "expected": "none"}\n',
  );
  const request = "trim adapters from my paired-end reads";
  const first = async (extra: string[]) => {
    const { code, stdout, stderr } = await sub(["select", request, "--json", ...extra], home.env);
    assert.equal(code, 0, stderr);
    return JSON.parse(stdout).selection.skills[0];
  };
  assert.equal(await first([]), "trim-galore");
  assert.equal(await first(["--feedback", told]), "fastp");
  // Reversible: the next command without the flag ranks as before (nothing was kept).
  assert.equal(await first([]), "trim-galore");
  const measured = join(home.dir, "measured.jsonl");
  await writeFile(measured, `{"request": "${request}", "expected": ["fastp"]}\n`);
  const without = await sub(["eval", measured, "--json"], home.env);
  const withIt = await sub(["eval", measured, "--json", "--feedback", told], home.env);
  assert.equal(withIt.code, 0, withIt.stderr);
  assert.deepEqual([JSON.parse(without.stdout).top1, JSON.parse(withIt.stdout).top1], [0, 1]);
  const shown = await sub(["catalog", "--json", "--feedback", told], home.env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(JSON.parse(shown.stdout).entries.some((e: { id: string }) => e.id === "fastp"));
});

test("--feedback: a bad or missing file names it, the line and the field; an unknown label is a warning", async () => {
  const bad = join(home.dir, "bad-feedback.jsonl");
  await writeFile(bad, '{"request": "sort a BAM"}\n');
  const wrong = await sub(["select", "sort a BAM", "--feedback", bad], home.env);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /--feedback .*bad-feedback\.jsonl: line 1: "expected" must be/);
  const missing = await sub(["eval", file, "--feedback", join(home.dir, "nope.jsonl")], home.env);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /Cannot read --feedback .*nope\.jsonl/);
  const typo = join(home.dir, "typo-feedback.jsonl");
  await writeFile(typo, '{"request": "sort a BAM", "expected": ["samtool"]}\n');
  const warned = await sub(["select", "sort a BAM", "--json", "--feedback", typo], home.env);
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /warning: feedback labels requests with "samtool"/);
});
