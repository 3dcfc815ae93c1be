// The example-run check (scripts/skill_examples.ts, `npm run test:examples`) is too slow for the
// suite; here: its map test/skill_examples.json is valid for the current built-ins, and its runner
// judges examples as it says (exit code, a count above 0, an expected file, no output at all,
// timeouts), on a made-up skill whose program is the shell's printf.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BUILTIN_SKILLS } from "../lib/resolve/_builtin_skills.ts";
import { parseSkill } from "../lib/skill/mod.ts";
import {
  checkExampleMap,
  type ExampleMap,
  readExampleMap,
  toyFor,
} from "../scripts/_example_map.ts";
import { runSkillExamples } from "../scripts/_example_run.ts";

test("test/skill_examples.json names only built-ins, their example tasks, known toy files and skip reasons", async () => {
  const map = await readExampleMap();
  const skills = await Promise.all(
    Object.entries(BUILTIN_SKILLS).map(async ([name, text]) =>
      (await parseSkill(text, { name })).skill
    ),
  );
  assert.deepEqual(checkExampleMap(map, skills, Object.keys(BUILTIN_SKILLS)), []);
});

test("the map check names a stale task, an unknown toy key and a skip without a reason", async () => {
  const { skill } = await parseSkill(BUILTIN_SKILLS.samtools, { name: "samtools" });
  const map: ExampleMap = {
    aliases: { "x.fa": "no-such-toy" },
    skills: {
      samtools: {
        files: { "a.bam": "nope" },
        examples: { "Old title": {}, "Convert SAM to BAM": { skip: " " } },
      },
      "not-a-skill": { skip: "x" },
    },
  };
  const problems = checkExampleMap(map, [skill], ["samtools"]);
  assert.equal(problems.length, 5);
  assert.equal(problems[0], "skills.not-a-skill: no built-in skill of that name");
  assert.equal(problems[1], 'aliases.x.fa: unknown toy key "no-such-toy"');
  assert.match(
    problems[2],
    /skills\.samtools\.files: no toy file for "a\.bam" \(unknown key "nope"\)/,
  );
  assert.equal(problems[3], 'skills.samtools: no example "Old title"');
  assert.equal(problems[4], 'skills.samtools.examples["Convert SAM to BAM"].skip: give the reason');
});

test("toy files are guessed from the names examples use", () => {
  const cases: [string, string | undefined][] = [
    ["sample1_R1.fastq.gz", "reads_1"],
    ["s1_L001_R2_001.fastq.gz", "reads_2"],
    ["SRR1234567_2.fastq.gz", "reads_2"],
    ["sample_R1.fastq", "reads_1.fq"],
    ["ont_reads.fastq.gz", "long"],
    ["rnaseq_R2.fastq.gz", "rna_2"],
    ["sample1.namesorted.bam", "bam_name"],
    ["sample.sorted.bam", "bam"],
    ["cohort.vcf.gz", "cohort.vcf.gz"],
    ["calls.vcf", "vcf"],
    ["exome_targets.bed", "targets.bed"],
    ["annotation.gff3", "gff3"],
    ["proteins_aln.faa", "protein_aln"],
    ["draft.fasta", "contigs"],
    ["GRCh38.fa", "genome"],
    ["notes.txt", undefined],
  ];
  for (const [name, key] of cases) assert.equal(toyFor(name, {}), key, name);
  assert.equal(toyFor("GRCh38.fa", { "GRCh38.fa": "strain2" }), "strain2");
});

const DEMO = (examples: [string, string][]) =>
  "---\nname: demo\ncommand: printf\ndescription: Prints. Use when testing.\n---\n## Examples\n" +
  examples.map(([task, args]) => `### ${task}\n**Args:** \`${args}\`\n**Explanation:** x\n`).join(
    "",
  );

test("the runner judges exit code, counts, expected files and silent examples, and stops slow ones", async () => {
  const { skill } = await parseSkill(DEMO([
    ["Count hits", "'3 hits\\n'"],
    ["Count nothing", "'0 hits\\n'"],
    ["Write a file", "'x' > out.txt"],
    ["Expect a missing file", "'x' > other.txt"],
    ["Say nothing", "''"],
    ["Fail", "'x' && false"],
    ["Hang", "'x' && sleep 5"],
    ["Skip me", "'x'"],
  ]));
  const map: ExampleMap = {
    aliases: {},
    skills: {
      demo: {
        examples: {
          "Count hits": { count: true },
          "Count nothing": { count: true },
          "Write a file": { files: ["out.txt"] },
          "Expect a missing file": { files: ["out2.txt"] },
          "Hang": { timeout: 1 },
          "Skip me": { skip: "needs a database" },
        },
      },
    },
  };
  const toyDir = await mkdtemp(join(tmpdir(), "skillmux-toy-test-"));
  try {
    const results = await runSkillExamples(skill, map, {
      toyDir,
      timeoutS: 10,
      deadline: Infinity,
    });
    assert.deepEqual(results.map((r) => [r.task, r.status]), [
      ["Count hits", "passed"],
      ["Count nothing", "failed"],
      ["Write a file", "passed"],
      ["Expect a missing file", "failed"],
      ["Say nothing", "failed"],
      ["Fail", "failed"],
      ["Hang", "failed"],
      ["Skip me", "skipped"],
    ]);
    assert.match(results[1].reason!, /the count is 0/);
    assert.match(results[3].reason!, /out2\.txt is missing or empty/);
    assert.match(results[4].reason!, /no output/);
    assert.match(results[5].reason!, /exit 1 \(expected 0\)/);
    assert.match(results[6].reason!, /timed out/);
    assert.equal(results[7].reason, "needs a database");
    assert.equal(results[0].command, "printf '3 hits\\n'");
  } finally {
    await rm(toyDir, { recursive: true, force: true });
  }
});

test("examples may open /dev/stdout and /dev/stderr (MAFFT does), and a failure shows stderr", async () => {
  const { skill } = await parseSkill(DEMO([
    ["Write to the device files", "'out\\n' > /dev/stdout && printf 'progress\\n' > /dev/stderr"],
    ["Fail with a message", "'bad input\\n' > /dev/stderr && false"],
  ]));
  const map: ExampleMap = { aliases: {}, skills: { demo: {} } };
  const toyDir = await mkdtemp(join(tmpdir(), "skillmux-toy-test-"));
  try {
    const results = await runSkillExamples(skill, map, {
      toyDir,
      timeoutS: 10,
      deadline: Infinity,
    });
    assert.deepEqual(results.map((r) => r.status), ["passed", "failed"]);
    assert.match(results[1].reason!, /exit 1 \(expected 0\): bad input/);
  } finally {
    await rm(toyDir, { recursive: true, force: true });
  }
});

test("claims see a wrong answer: output checked against the toy data's known answers", async () => {
  const { skill } = await parseSkill(DEMO([
    ["Right answer", "'3 hits\\n' > hits.txt"],
    ["Wrong answer", "'2 hits\\n' > hits.txt"],
    ["Unknown truth", "'x' > x.txt"],
    ["Check fails", "'x' > x.txt"],
    ["Printed answer", "'5 found\\n'"],
  ]));
  const claim = { claim: "finds the planted hits", run: "cut -d' ' -f1 hits.txt" };
  const map: ExampleMap = {
    aliases: {},
    skills: {
      demo: {
        examples: {
          "Right answer": {
            claims: [{ ...claim, equals: "{truth.hits}" }, { ...claim, atLeast: 3, atMost: 3 }],
          },
          "Wrong answer": { claims: [{ ...claim, matches: "^{truth.hits}$" }] },
          "Unknown truth": { claims: [{ claim: "x", run: "echo {truth.nope}", equals: "1" }] },
          "Check fails": { claims: [{ claim: "x", run: "false", equals: "" }] },
          "Printed answer": {
            claims: [{ claim: "prints 5", run: 'cut -d" " -f1 "$EXAMPLE_STDOUT"', equals: "5" }],
          },
        },
      },
    },
  };
  const toyDir = await mkdtemp(join(tmpdir(), "skillmux-toy-test-"));
  try {
    await writeFile(join(toyDir, "truth.json"), JSON.stringify({ hits: 3 }));
    const results = await runSkillExamples(skill, map, {
      toyDir,
      timeoutS: 10,
      deadline: Infinity,
    });
    assert.deepEqual(results.map((r) => [r.status, r.claims]), [
      ["passed", 2],
      ["failed", 1],
      ["failed", 1],
      ["failed", 1],
      ["passed", 1],
    ]);
    assert.match(results[1].reason!, /claim "finds the planted hits" does not hold: got "2"/);
    assert.match(results[2].reason!, /unknown truth value \{truth\.nope\}/);
    assert.match(results[3].reason!, /its check exited 1/);
  } finally {
    await rm(toyDir, { recursive: true, force: true });
  }
});

test("the map check names a claim without a check or without a test", async () => {
  const { skill } = await parseSkill(BUILTIN_SKILLS.samtools, { name: "samtools" });
  const map: ExampleMap = {
    aliases: {},
    skills: {
      samtools: {
        examples: {
          "Convert SAM to BAM": {
            claims: [{ claim: "x", run: " " }, { claim: "y", run: "true" } as never],
          },
        },
      },
    },
  };
  assert.deepEqual(checkExampleMap(map, [skill], ["samtools"]), [
    'skills.samtools.examples["Convert SAM to BAM"].claims[0]: give claim and run',
    'skills.samtools.examples["Convert SAM to BAM"].claims[0]: give equals, matches, atLeast or atMost',
    'skills.samtools.examples["Convert SAM to BAM"].claims[1]: give equals, matches, atLeast or atMost',
  ]);
});
