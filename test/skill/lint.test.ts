import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isLintClean, lintSkill, parseSkill, type Skill } from "../../lib/skill/mod.ts";
import { fixture } from "./_helpers.ts";

async function samtools(): Promise<Skill> {
  return (await parseSkill(await fixture("samtools.md"))).skill;
}

function fields(skill: Skill, options?: Parameters<typeof lintSkill>[1]): string[] {
  return lintSkill(skill, options).map((d) => `${d.severity}:${d.field}`);
}

describe("lintSkill", () => {
  test("the samtools fixture meets the bar", async () => {
    const diagnostics = lintSkill(await samtools());
    assert.deepEqual(diagnostics, []);
    assert.equal(isLintClean(diagnostics), true);
  });

  test("too few examples, concepts and pitfalls are errors; thresholds are options", async () => {
    const skill = await samtools();
    const thin = { ...skill, examples: skill.examples.slice(0, 4), concepts: [], pitfalls: ["p"] };
    const diagnostics = lintSkill(thin);
    assert.deepEqual(diagnostics.map((d) => `${d.severity}:${d.field}`), [
      "error:examples",
      "error:concepts",
      "error:pitfalls",
    ]);
    assert.equal(diagnostics[0]!.skill, "samtools");
    assert.equal(
      diagnostics[0]!.message,
      'Skill "samtools": has 4 examples; at least 5 are needed',
    );
    assert.equal(isLintClean(diagnostics), false);
    assert.deepEqual(fields(thin, { minExamples: 4, minConcepts: 0, minPitfalls: 1 }), []);
  });

  test("the description must be 20-1024 characters and say when to use the skill", async () => {
    const skill = await samtools();
    assert.deepEqual(fields({ ...skill, description: "Too short. Use when" }), [
      "error:description",
    ]);
    assert.deepEqual(
      fields({ ...skill, description: "Suite of programs for SAM/BAM/CRAM handling" }),
      [
        "error:description",
      ],
    );
    assert.match(
      lintSkill({ ...skill, description: "Suite of programs for SAM/BAM/CRAM handling" })[0]!
        .message,
      /what the skill does and when to use it/,
    );
    for (
      const ok of [
        "Sorts and indexes BAM files. Use for alignment work.",
        "Sorts and indexes BAM files. Use to prepare alignments.",
        "Sorts and indexes BAM files, when alignments need it.",
        "Sorts and indexes BAM files. Useful for alignment work.",
      ]
    ) {
      assert.deepEqual(fields({ ...skill, description: ok }), [], ok);
    }
    const long = `Use when testing. ${"x".repeat(1010)}`;
    assert.deepEqual(fields({ ...skill, description: long }), ["error:description"]);
    assert.deepEqual(
      fields({ ...skill, description: "x", examples: [] }, {
        minExamples: 0,
        minDescriptionLength: 1,
        requireWhen: false,
      }),
      [],
    );
  });

  test("warnings: a description over 250 characters or with < or >", async () => {
    const skill = await samtools();
    const long = `Use when testing. ${"x".repeat(240)}`;
    assert.deepEqual(fields({ ...skill, description: long }), ["warning:description"]);
    assert.deepEqual(fields({ ...skill, description: "Use when <b>bold</b> is needed." }), [
      "warning:description",
    ]);
  });

  test("example args that start with the program name, duplicate tasks, empty parts", async () => {
    const skill = await samtools();
    const examples = [
      ...skill.examples,
      { task: "Sort again", args: "samtools sort -o out.bam in.bam", explanation: "x" },
      { task: "sort a BAM file by coordinates ", args: "sort in.bam", explanation: "x" },
      { task: "Nothing", args: " ", explanation: " " },
    ];
    assert.deepEqual(fields({ ...skill, examples }), [
      "error:examples[5].args",
      "warning:examples[6].task",
      "warning:examples[7].args",
      "warning:examples[7].explanation",
    ]);
    const messages = lintSkill({ ...skill, examples }).map((d) => d.message);
    assert.match(messages[0]!, /start with the program name "samtools"; leave it out/);
    assert.match(messages[1]!, /example 7 has the same task as example 1/);
  });
});
