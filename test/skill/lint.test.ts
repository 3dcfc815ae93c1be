import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isLintClean, lintSkill, parseSkill, type Skill, skillKind } from "../../lib/skill/mod.ts";
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

  test("the description must be 20-1024 characters; saying when to use the skill is a hint", async () => {
    const skill = await samtools();
    assert.deepEqual(fields({ ...skill, description: "Too short. Use when" }), [
      "error:description",
    ]);
    const bare = "Suite of programs, SAM/BAM/CRAM handling";
    assert.deepEqual(fields({ ...skill, description: bare }), ["warning:description"]);
    assert.match(lintSkill({ ...skill, description: bare })[0]!.message, /should say when to use/);
    for (
      const ok of [
        "Sorts and indexes BAM files. Use for alignment work.",
        "Sorts and indexes BAM files. Use to prepare alignments.",
        "Sorts and indexes BAM files, when alignments need it.",
        "Sorts and indexes BAM files. Useful for alignment work.",
        // Phrasings of published skills the old rule flagged:
        "This skill should be used at the start of a sequencing project.",
        "Differential expression with DESeq2. Preferred for count matrices.",
        "Pseudo-alignment and quantification, for RNA-seq analysis.",
        "Cloud chemistry workflows. Ideal for batch screening.",
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

describe("lintSkill by format", () => {
  const agent = (front: string, body = "") =>
    parseSkill(`---\n${front}---\n${body}`, { name: "pdf" }).then((p) => p.skill);

  test("an Agent Skills SKILL.md is held to the specification, not to the examples bar", async () => {
    const skill = await agent("name: pdf\ndescription: Fill PDF forms. Use when handling PDFs.\n");
    assert.equal(skillKind(skill), "agent-skills");
    assert.deepEqual(lintSkill(skill), []);
    // On request, the Concepts/Pitfalls/Examples bar applies all the same.
    assert.deepEqual(fields(skill, { bar: "skillmux" }), [
      "error:examples",
      "error:concepts",
      "error:pitfalls",
    ]);
    // A skillmux-format skill gets the bar by default, and only the specification with "spec".
    const samtoolsSkill = await samtools();
    assert.equal(skillKind(samtoolsSkill), "skillmux");
    const thin = { ...samtoolsSkill, examples: [] };
    assert.deepEqual(fields(thin), ["error:examples"]);
    assert.deepEqual(fields(thin, { bar: "spec" }), []);
    // Worked examples alone make a skill one of skillmux's format, front matter or not.
    const worked = await agent(
      "name: pdf\ndescription: Fill PDF forms. Use for PDFs.\n",
      "## Examples\n\n### Fill a form\n\n**Args:** `fill in.pdf` **Explanation:** Fills it.\n",
    );
    assert.equal(skillKind(worked), "skillmux");
    assert.ok(fields(worked).includes("error:concepts"));
  });

  test("a minimal valid skill (name, description, one Concepts bullet) is lint-clean", async () => {
    const skill = await agent(
      "name: pdf\ndescription: Fill PDF forms. Use when handling PDFs.\n",
      "## Concepts\n\n- A form field has a name and a value.\n",
    );
    assert.deepEqual(skill.concepts, ["A form field has a name and a value."]);
    assert.equal(skillKind(skill), "agent-skills");
    assert.equal(isLintClean(lintSkill(skill, { files: [] })), true);
  });

  test("spec errors: the declared name, lengths, allowed-tools syntax", async () => {
    const display = await agent("name: PDF Tools\ndescription: Fill PDF forms. Use for PDFs.\n");
    assert.deepEqual(fields(display), ["error:name"]);
    assert.match(
      lintSkill(display)[0]!.message,
      /name "PDF Tools" must equal the folder name "pdf"/,
    );
    const compat = await agent(
      `name: pdf\ndescription: Fill PDF forms. Use for PDFs.\ncompatibility: ${"x".repeat(501)}\n`,
    );
    assert.deepEqual(fields(compat), ["error:compatibility"]);
    const tools = await agent(
      "name: pdf\ndescription: Fill PDF forms. Use for PDFs.\n" +
        "allowed-tools: Bash(git commit:*) Read mcp__github__create_issue Bash(x\n",
    );
    assert.deepEqual(tools.allowedTools, [
      "Bash(git commit:*)",
      "Read",
      "mcp__github__create_issue",
      "Bash(x",
    ]);
    assert.deepEqual(fields(tools), ["error:allowed-tools"]);
    assert.match(lintSkill(tools)[0]!.message, /entry "Bash\(x" is not a tool name/);
    const listed = await agent(
      "name: pdf\ndescription: Fill PDF forms. Use for PDFs.\nallowed-tools: [Read, Write]\n",
    );
    assert.deepEqual(fields(listed), []);
  });

  test("every relative path the body names must be a file of the skill", async () => {
    const body = [
      "See [the guide](references/guide.md#forms) and ![logo](assets/logo.png).",
      "Run `python scripts/office/unpack.py in.docx` first.",
      "```bash",
      "python scripts/fill.py form.pdf",
      "[not a link in code](notes/code.md)",
      "```",
      "Templates like references/<name>.md, https://example.org/x.md and [top](#top) are no paths.",
      "Copy [the env file](assets/.env.example); see [the sibling](../other/SKILL.md).",
      "",
    ].join("\n");
    const skill = await agent("name: pdf\ndescription: Fill PDF forms. Use for PDFs.\n", body);
    const files = [
      "references/guide.md",
      "assets/logo.png",
      "scripts/office/unpack.py",
      "scripts/fill.py",
      "assets/.env.example",
    ];
    assert.deepEqual(fields(skill, { files }), ["warning:body"]);
    assert.match(lintSkill(skill, { files })[0]!.message, /"\.\.\/other\/SKILL\.md", outside/);
    const missing = lintSkill(skill, { files: files.slice(2), bodyLine: 4 });
    assert.deepEqual(
      missing.filter((d) => d.severity === "error").map((d) => [d.line, d.message]),
      [
        [4, 'Skill "pdf": the body names "references/guide.md", which is not a file of the skill'],
        [4, 'Skill "pdf": the body names "assets/logo.png", which is not a file of the skill'],
      ],
    );
    // A path in running text or in a code block counts as much as a link.
    const scripts = lintSkill(skill, {
      files: ["references/guide.md", "assets/logo.png", "assets/.env.example"],
    });
    assert.deepEqual(
      scripts.filter((d) => d.severity === "error").map((d) => [d.line, d.message]),
      [
        [
          2,
          'Skill "pdf": the body names "scripts/office/unpack.py", which is not a file of the skill',
        ],
        [4, 'Skill "pdf": the body names "scripts/fill.py", which is not a file of the skill'],
      ],
    );
    // Without the folder's files the check is skipped.
    assert.deepEqual(fields(skill).filter((f) => f.startsWith("error")), []);
  });

  test("a long body is a warning", async () => {
    const skill = await agent(
      "name: pdf\ndescription: Fill PDF forms. Use for PDFs.\n",
      "line\n".repeat(600),
    );
    assert.deepEqual(fields(skill), ["warning:body"]);
  });
});
