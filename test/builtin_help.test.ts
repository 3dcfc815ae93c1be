// Every long option in the built-in skills' examples appears in the help of the installed program
// (Debian packages; test/builtin_help.json maps skill → package and help command). Skipped, with
// the reason, where the tool is not installed or Debian does not package it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILTIN_SKILLS } from "../lib/resolve/_builtin_skills.ts";
import { parseSkill } from "../lib/skill/mod.ts";
import {
  checkSkillHelp,
  debianPackageMissing,
  helpEntries,
  helpHasOption,
  optionUses,
} from "./_help_check.ts";
import { ONCE_UNDER_DENO } from "./_once.ts";

const entries = await helpEntries();

test("every built-in skill has an entry in test/builtin_help.json", () => {
  const missing = Object.keys(BUILTIN_SKILLS).filter((name) => !Object.hasOwn(entries, name));
  assert.deepEqual(
    missing,
    [],
    `add { "package": "<debian package>", "help": ["<program> --help"] } or ` +
      `{ "package": null, "reason": "..." } for each`,
  );
  for (const [name, entry] of Object.entries(entries)) {
    assert.ok(
      entry.package !== null || (entry.reason ?? "") !== "",
      `${name}: a null package needs a reason`,
    );
  }
});

// One skipped test under Node in place of one per skill.
if (ONCE_UNDER_DENO !== false) {
  test("built-in skills: every long option is in the program's help", { skip: ONCE_UNDER_DENO });
}
for (const [name, text] of ONCE_UNDER_DENO === false ? Object.entries(BUILTIN_SKILLS) : []) {
  const entry = entries[name];
  if (entry === undefined) continue; // reported above
  // A few help commands at a time, each up to 90 s on a loaded machine (_help_check.ts).
  const timeout = 300_000;
  test(`built-in "${name}": every long option is in the program's help`, { timeout }, async (t) => {
    if (entry.package === null) return t.skip(`no Debian package: ${entry.reason}`);
    const { skill } = await parseSkill(text, { name });
    const report = await checkSkillHelp(skill, entry);
    if (report.skipped !== undefined) return t.skip(report.skipped);
    assert.deepEqual(report.missing, []);
    assert.deepEqual(report.stale, []);
    if (report.excused.length > 0) t.diagnostic(`not in this help: ${report.excused.join("; ")}`);
  });
}

const SKILL = (args: string[]) =>
  "---\nname: samtools\ndescription: SAM tools. Use when sorting.\n---\n## Examples\n" +
  args.map((a, i) => `### Task ${i}\n**Args:** \`${a}\`\n**Explanation:** x\n`).join("");

test("options are read from the program's part of a pipeline, with their subcommand", async () => {
  const { skill } = await parseSkill(SKILL([
    "sort --threads 4 -o out.bam in.bam | samtools index --csi - | grep --count x",
    "view --write-index=yes 'a --quoted' in.bam && samtools flagstat --help",
  ]));
  const uses = optionUses(skill, { package: "samtools", help: ["samtools {sub} --help"] });
  assert.deepEqual(uses.map((u) => [u.example, u.option, u.help[0]]), [
    [1, "--threads", "samtools sort --help"],
    [1, "--csi", "samtools index --help"],
    [2, "--write-index", "samtools view --help"],
    [2, "--help", "samtools flagstat --help"],
  ]);
});

test("a companion's options are looked up in the companion's help", async () => {
  const { skill } = await parseSkill(
    "---\nname: hisat2\ndescription: Align. Use when mapping.\n---\n## Examples\n" +
      "### Index\n**Command:** `hisat2-build`\n**Args:** `--ss s.txt g.fa idx`\n**Explanation:** x\n",
  );
  const uses = optionUses(skill, { package: "hisat2", help: ["hisat2 --help"] });
  assert.deepEqual(uses.map((u) => u.help), [["hisat2-build --help"]]);
});

test("helpHasOption matches whole options only, and bare names at a line start when asked", () => {
  assert.equal(helpHasOption("  -o, --out1   read1 output", "--out1"), true);
  assert.equal(helpHasOption("  --out10   x", "--out1"), false);
  assert.equal(helpHasOption("  --no-out1   x", "--out1"), false);
  assert.equal(helpHasOption("  --cs[=STR]  output the cs tag", "--cs"), true);
  assert.equal(helpHasOption("runThreadN    1\n", "--runThreadN", true), true);
  assert.equal(helpHasOption("runThreadN    1\n", "--runThreadN"), false);
});

test("the check fails on an option the installed program does not have", async (t) => {
  const entry = entries.samtools!;
  const { skill } = await parseSkill(SKILL(["sort --no-such-option -o out.bam in.bam"]));
  const report = await checkSkillHelp(skill, entry);
  if (report.skipped !== undefined) return t.skip(report.skipped);
  assert.equal(report.missing.length, 1);
  assert.match(report.missing[0], /example 1: --no-such-option is not in the help of samtools/);
});

test("a missing extra package skips the check and names the package", async (t) => {
  const entry = entries.samtools!;
  const { skill } = await parseSkill(SKILL(["sort --no-such-option -o out.bam in.bam"]));
  const extra = "skillmux-no-such-package";
  if (!(await debianPackageMissing(extra))) return t.skip("no dpkg to ask (not Debian)");
  const report = await checkSkillHelp(skill, { ...entry, extra: [extra] });
  assert.equal(report.skipped, `the Debian package ${extra} is not installed (samtools needs it)`);
  assert.deepEqual(report.missing, []);
});
