// The program name of a skill: `command` and `checked_version` in front matter, `**Command:**`
// in an example, the full command line of an example, rendering it, and the lint rule.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  exampleCommandLine,
  exampleProgram,
  lintSkill,
  parseSkill,
  renderSkill,
  renderSkillSections,
  type Skill,
} from "../../lib/skill/mod.ts";
import { parseError, withoutDigest } from "./_helpers.ts";

const EXAMPLES = "## Examples\n\n" +
  "### Build an index\n**Command:** `hisat2-build`\n**Args:** `-p 8 genome.fa idx`\n" +
  "**Explanation:** Writes idx.1.ht2 to idx.8.ht2.\n\n" +
  "### Align reads\n**Args:** `-x idx -U reads.fq.gz -S out.sam`\n**Explanation:** Single-end.\n";

function markdown(front: string, body = EXAMPLES): string {
  return `---\nname: hisat2\ndescription: Align reads. Use when mapping.\n${front}---\n${body}`;
}

describe("command and checked_version", () => {
  test("front matter and **Command:** lines are read into the skill", async () => {
    const { skill, diagnostics } = await parseSkill(
      markdown('command: java -jar picard.jar\nchecked_version: "2.2.1"\n'),
      { strict: true },
    );
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.command, "java -jar picard.jar");
    assert.equal(skill.checkedVersion, "2.2.1");
    assert.deepEqual(skill.examples.map((e) => e.command), ["hisat2-build", undefined]);
    assert.equal(Object.hasOwn(skill.examples[1]!, "command"), false);
  });

  test("a version written as a YAML number keeps its text", async () => {
    const { skill } = await parseSkill(markdown("checked_version: 1.10\n"));
    assert.equal(skill.checkedVersion, "1.10");
  });

  test("absent: no command, and the program defaults to the skill name", async () => {
    const { skill } = await parseSkill(markdown(""));
    assert.equal(skill.command, undefined);
    assert.equal(skill.checkedVersion, undefined);
    assert.equal(exampleProgram(skill, skill.examples[1]!), "hisat2");
    assert.equal(
      exampleCommandLine(skill, skill.examples[1]!),
      "hisat2 -x idx -U reads.fq.gz -S out.sam",
    );
    assert.equal(exampleCommandLine(skill, skill.examples[0]!), "hisat2-build -p 8 genome.fa idx");
  });

  test("the skill's command prefixes examples without a program of their own", async () => {
    const { skill } = await parseSkill(markdown("command: /opt/hisat2/hisat2\n"));
    assert.deepEqual(skill.examples.map((e) => exampleCommandLine(skill, e)), [
      "hisat2-build -p 8 genome.fa idx",
      "/opt/hisat2/hisat2 -x idx -U reads.fq.gz -S out.sam",
    ]);
  });

  for (
    const bad of ["rm -rf /; STAR", "STAR && echo", "$STAR", "STAR\tx", "-jar x.jar", "a  b", "`x`"]
  ) {
    test(`refuses the command ${JSON.stringify(bad)} with the field and line`, async () => {
      const error = await parseError(markdown(`command: ${JSON.stringify(bad)}\n`), {
        source: "hisat2.md",
      });
      assert.equal(error.field, "command");
      assert.equal(error.line, 4);
      assert.match(error.message, /field "command" must be the program as typed at a shell/);
    });
  }

  test("refuses a bad **Command:** line, naming the example and its line", async () => {
    const body = "## Examples\n\n### Index\n**Command:** `x | y`\n**Args:** `a`\n" +
      "**Explanation:** e\n";
    const error = await parseError(markdown("", body), { source: "hisat2.md" });
    assert.equal(error.line, 8);
    assert.match(error.message, /the \*\*Command:\*\* of example "Index" must be the program/);
  });

  test("legacy TOML: command and checked_version in [meta], command in [[examples]]", async () => {
    const toml = '[meta]\nname = "hisat2"\ndescription = "Align. Use when mapping."\n' +
      'command = "hisat2"\nchecked_version = 2.2\n' +
      '[[examples]]\ntask = "Index"\ncommand = "hisat2-build"\nargs = "g.fa idx"\n' +
      'explanation = "Builds it."\n';
    const { skill, diagnostics } = await parseSkill(toml, { strict: true });
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.command, "hisat2");
    assert.equal(skill.checkedVersion, "2.2");
    assert.equal(skill.examples[0]!.command, "hisat2-build");
    const bad = toml.replace('command = "hisat2-build"', "command = 3");
    const error = await parseError(bad);
    assert.match(error.message, /field "command" of example "Index" must be a string/);
  });
});

describe("rendering the program", () => {
  test("front matter order, and a **Command:** line only where the example has one", async () => {
    const { skill } = await parseSkill(markdown("command: STAR\nchecked_version: 2.7.10b\n"));
    const text = renderSkill({ ...skill, body: "" });
    assert.match(
      text,
      /^---\nname: hisat2\ndescription: .*\ncommand: STAR\nchecked_version: 2\.7\.10b\n---\n/,
    );
    assert.match(text, /### Build an index\n\*\*Command:\*\* `hisat2-build`\n\*\*Args:\*\*/);
    assert.match(text, /### Align reads\n\*\*Args:\*\*/);
    const again = await parseSkill(text);
    assert.deepEqual(again.skill.examples, skill.examples);
  });

  test("showCommands names the program of every example, in a body and in generated sections", async () => {
    const { skill } = await parseSkill(markdown("command: STAR\n"));
    const shown = renderSkill(skill, { showCommands: true });
    assert.match(shown, /### Align reads\n\*\*Command:\*\* `STAR`\n\*\*Args:\*\* `-x idx/);
    assert.equal(shown.match(/\*\*Command:\*\*/g)?.length, 2, "the companion line is not doubled");
    const generated = renderSkillSections(skill, { showCommands: true });
    assert.match(generated, /### Build an index\n\*\*Command:\*\* `hisat2-build`\n/);
    assert.match(generated, /### Align reads\n\*\*Command:\*\* `STAR`\n/);
    for (const text of [shown, renderSkill({ ...skill, body: "" }, { showCommands: true })]) {
      const back = (await parseSkill(text)).skill;
      assert.deepEqual(
        back.examples.map((e) => exampleCommandLine(back, e)),
        skill.examples.map((e) => exampleCommandLine(skill, e)),
      );
    }
  });

  test("without showCommands a body is written exactly as it was", async () => {
    const { skill } = await parseSkill(markdown("command: STAR\n"));
    assert.ok(renderSkill(skill).endsWith(`---\n${EXAMPLES}`));
  });
});

describe("lint: args never begin with a program name", () => {
  const base = async (front: string): Promise<Skill> => (await parseSkill(markdown(front))).skill;
  const argsErrors = (skill: Skill, args: string, command?: string) =>
    lintSkill({
      ...skill,
      examples: [{ task: "T", args, explanation: "e", ...(command ? { command } : {}) }],
    }).filter((d) => d.field === "examples[0].args").map((d) => d.message);

  test("the skill name, the skill's command, the example's command, case-insensitive", async () => {
    const skill = await base("command: java -jar /opt/picard.jar\n");
    for (const args of ["hisat2 -x i", "java -jar picard.jar X", "PICARD.JAR X", "picard.jar X"]) {
      const [message] = argsErrors(skill, args);
      assert.match(message ?? "", /start with the program name .*; leave it out/, args);
    }
    assert.match(argsErrors(skill, "/usr/bin/hisat2 -x i")[0] ?? "", /"\/usr\/bin\/hisat2"/);
    assert.equal(argsErrors(skill, "bowtie2-build g.fa i", "bowtie2-build").length, 1);
    assert.deepEqual(argsErrors(skill, "SortSam -I a.bam"), []);
    assert.deepEqual(argsErrors(skill, "-x idx -U r.fq"), []);
  });

  test("where the command names another program, the skill name counts only as written", async () => {
    const mutect2 = { ...await base("command: gatk\n"), name: "mutect2" };
    assert.deepEqual(argsErrors(mutect2, "Mutect2 -R ref.fa -I t.bam -O out.vcf.gz"), []);
    assert.equal(argsErrors(mutect2, "mutect2 -R ref.fa").length, 1);
    assert.equal(argsErrors(mutect2, "GATK Mutect2 -R ref.fa").length, 1);
    const star = { ...await base("command: STAR\n"), name: "star" };
    assert.equal(argsErrors(star, "star --runMode x").length, 1, "same program: any case");
  });

  test("a companion program in the args: put it in a **Command:** line", async () => {
    const skill = await base("");
    for (const args of ["hisat2-build g.fa idx", "hisat2_extract_exons.py genes.gtf"]) {
      const [message] = argsErrors(skill, args);
      assert.match(message ?? "", /name a companion program in a \*\*Command:\*\* line/, args);
    }
    assert.deepEqual(argsErrors(skill, "hisat2_out/x.sam"), []);
    assert.deepEqual(argsErrors(skill, "hisat2x"), []);
  });

  test("the rule is an error", async () => {
    const skill = await base("command: STAR\n");
    const [d] = lintSkill({
      ...skill,
      examples: [{ task: "T", args: "STAR --runMode x", explanation: "e" }],
    }).filter((x) => x.field === "examples[0].args");
    assert.equal(d?.severity, "error");
  });

  test("a rendered skill parses back to the same skill (round trip)", async () => {
    const { skill } = await parseSkill(markdown("command: STAR\nchecked_version: '1.0'\n"));
    const back = await parseSkill(renderSkill(skill));
    assert.deepEqual(withoutDigest(back.skill), withoutDigest(skill));
  });
});
