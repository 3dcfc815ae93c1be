import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  isInvalidSkillNameError,
  parseSkill,
  safeParseSkill,
  skillKind,
} from "../../lib/skill/mod.ts";
import { fixture, parseError, skillText, withoutDigest } from "./_helpers.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  REAL_SKILLS,
  SHAPES,
  SHAPES_LOADED,
  SHAPES_REFUSED,
  skillFolders,
} from "../_agent_skills.ts";

describe("parseSkill: Agent Skills SKILL.md", () => {
  test("reads every Agent Skills field of the fixture", async () => {
    const text = await fixture("pdf-tools/SKILL.md");
    const { skill, diagnostics } = await parseSkill(text, {
      name: "pdf-tools",
      source: "pdf-tools/SKILL.md",
    });
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.name, "pdf-tools");
    assert.equal(skill.format, "markdown");
    assert.match(skill.description, /^Extract text .* Use when the user mentions PDFs/);
    assert.equal(skill.license, "Apache-2.0");
    assert.equal(skill.compatibility, "Requires python3 and the pypdf package");
    assert.deepEqual(skill.metadata, { author: "example-org", version: "1.10", reviewed: "true" });
    assert.deepEqual(skill.allowedTools, ["Bash(python3:*)", "Read", "Write"]);
    assert.deepEqual(skill.tags, []);
    assert.deepEqual(skill.meta, {});
    assert.ok(skill.body.startsWith("# PDF tools\n\n## Quick start\n"));
    assert.ok(skill.body.endsWith("- This bullet is not a concept.\n"));
    // "## Notes" bullets are no concepts; "## Not a heading" sits in a code block.
    assert.deepEqual([skill.concepts, skill.pitfalls, skill.examples], [[], [], []]);
    assert.match(skill.digest, /^sha256:[0-9a-f]{64}$/);
  });

  test("allowed-tools may be a YAML list", async () => {
    const { skill } = await parseSkill(
      skillText("allowed-tools:\n  - Read\n  - Bash(git log:*)\n"),
    );
    assert.deepEqual(skill.allowedTools, ["Read", "Bash(git log:*)"]);
  });

  test("metadata values are stringified from their source text", async () => {
    const { skill } = await parseSkill(
      skillText("metadata:\n  version: 2.10\n  n: 007\n  ok: false\n  none:\n  s: 'x'\n"),
    );
    assert.deepEqual(skill.metadata, { version: "2.10", n: "007", ok: "false", none: "", s: "x" });
  });

  test("the digest is the SHA-256 of the exact text", async () => {
    const lf = "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n";
    const crlf = lf.replaceAll("\n", "\r\n");
    assert.equal(
      (await parseSkill(lf)).skill.digest,
      "sha256:7254994e8ea7674655bc60ebaad2c3f0e296562d3fe9b97612cf3a1aaf624b25",
    );
    assert.equal(
      (await parseSkill(crlf)).skill.digest,
      "sha256:d0d7a8c9043dfd0b15b277c5207475101e7b15f8d8996593f27f0ebb4724680b",
    );
  });

  test("CRLF, lone CR and a BOM parse exactly like LF", async () => {
    const lf = await fixture("samtools.md");
    const base = withoutDigest((await parseSkill(lf)).skill);
    for (const text of [lf.replaceAll("\n", "\r\n"), `\ufeff${lf}`, lf.replaceAll("\n", "\r")]) {
      assert.deepEqual(withoutDigest((await parseSkill(text)).skill), base);
    }
  });

  test("leading blank lines, trailing spaces on fences and a '...' closing fence", async () => {
    const text = "\n  \n---  \nname: demo\ndescription: Demo. Use when testing.\n...\nBody\n";
    const { skill } = await parseSkill(text);
    assert.equal(skill.name, "demo");
    assert.equal(skill.body, "Body\n");
  });

  test("an empty body and a missing final newline", async () => {
    assert.equal((await parseSkill(skillText())).skill.body, "");
    const { skill } = await parseSkill("---\nname: a\ndescription: d\n---");
    assert.equal(skill.body, "");
  });
});

describe("parseSkill: typed values keep the author's text", () => {
  test("versions stay strings as written", async () => {
    const { skill } = await parseSkill(skillText("min_version: 1.10\nmax_version: 2.0\n"));
    assert.equal(skill.minVersion, "1.10");
    assert.equal(skill.maxVersion, "2.0");
  });

  test("a numeric name is checked as a string", async () => {
    const { skill } = await parseSkill(
      "---\nname: 123\ndescription: Numbers. Use when counting.\n---\n",
    );
    assert.equal(skill.name, "123");
    const error = await parseError("---\nname: 1.10\ndescription: d\n---\n");
    assert.equal(error.field, "name");
    assert.equal(error.line, 2);
    assert.match(error.message, /Invalid skill name "1\.10"/);
  });

  test("booleans, nulls and YAML 1.1 words", async () => {
    const { skill } = await parseSkill(
      skillText("category: true\nauthor: no\nlicense: ~\ncompatibility: ''\n"),
    );
    assert.equal(skill.category, "true");
    assert.equal(skill.author, "no");
    assert.equal(skill.license, undefined);
    assert.equal("license" in skill, false);
    assert.equal(skill.compatibility, undefined);
  });

  test("a non-scalar where a string is expected warns on its field and line (strict: fails)", async () => {
    const text = skillText("author:\n  - a\n  - b\n");
    const { skill, diagnostics } = await parseSkill(text);
    assert.equal(skill.author, undefined);
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.field, d.line]), [
      ["warning", "author", 4],
    ]);
    assert.match(
      diagnostics[0]!.message,
      /field "author" must be a string, not a list; it is ignored/,
    );
    const error = await parseError(text, { strict: true });
    assert.equal(error.field, "author");
    assert.equal(error.line, 4);
  });

  test("metadata values that are not strings load as JSON text with a warning (strict: fails)", async () => {
    // rowan and markdown-mermaid-writing (test/fixtures/agent-skills) write lists there.
    const text = skillText('metadata:\n  a: x\n  keywords: ["pKa", "SMILES"]\n  n: {k: 1}\n');
    const { skill, diagnostics } = await parseSkill(text);
    assert.deepEqual(skill.metadata, { a: "x", keywords: '["pKa","SMILES"]', n: '{"k":1}' });
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.field, d.line]), [
      ["warning", "metadata.keywords", 6],
      ["warning", "metadata.n", 7],
    ]);
    const nested = await parseError(text, { strict: true });
    assert.equal(nested.field, "metadata.keywords");
    assert.equal(nested.line, 6);
    const scalar = await parseSkill(skillText("metadata: just text\n"));
    assert.deepEqual(scalar.skill.metadata, {});
    assert.match(
      scalar.diagnostics[0]!.message,
      /"metadata" must be a map of strings, not a string/,
    );
  });
});

describe("parseSkill: Concepts/Pitfalls/Examples", () => {
  test("reads the oxo-call fixture", async () => {
    const { skill, diagnostics } = await parseSkill(await fixture("samtools.md"), {
      name: "samtools",
    });
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.category, "alignment");
    assert.deepEqual(skill.tags, ["bam", "sam", "alignment", "ngs"]);
    assert.equal(skill.author, "oxo-call built-in");
    assert.equal(skill.sourceUrl, "http://www.htslib.org/doc/samtools.html");
    assert.equal(skill.minVersion, "1.10");
    assert.equal(skill.maxVersion, "1.21");
    assert.deepEqual(skill.concepts, [
      "BAM files must be coordinate-sorted before indexing with `samtools index`; " +
      "name-sorted files cannot be indexed.",
      "The -@ flag sets extra threads; -o names the output file.",
      "CRAM needs the reference FASTA (-T or --reference) to decode reads.",
    ]);
    assert.equal(skill.pitfalls.length, 3);
    assert.equal(skill.examples.length, 5);
    assert.deepEqual(skill.examples[0], {
      task: "Sort a BAM file by coordinates",
      args: "sort -@ 4 -o sorted.bam input.bam",
      explanation: "-@ 4 uses 4 extra threads; -o names the output.",
    });
    assert.equal(
      skill.examples[2]!.explanation,
      "-F 4 excludes reads with the unmapped flag; -b writes BAM.",
    );
  });

  test("tags as a block list or a comma-separated string", async () => {
    const block = await parseSkill(skillText("tags:\n  - bam\n  - ' ngs '\n"));
    assert.deepEqual(block.skill.tags, ["bam", "ngs"]);
    const csv = await parseSkill(skillText("tags: bam, ngs,, short-read\n"));
    assert.deepEqual(csv.skill.tags, ["bam", "ngs", "short-read"]);
    const comment = await parseSkill(skillText("tags: []         # e.g. [bam, ngs]\n"));
    assert.deepEqual(comment.skill.tags, []);
  });

  test("a later ## heading ends the section: no leaking bullets", async () => {
    const body = "## Concepts\n- one\n\n## Notes\n- not a concept\n\n## Pitfalls\n- p\n" +
      "# Appendix\n- not a pitfall\n";
    const { skill } = await parseSkill(skillText("", body));
    assert.deepEqual(skill.concepts, ["one"]);
    assert.deepEqual(skill.pitfalls, ["p"]);
  });

  test("headings match case-insensitively, ### does not end a list, fences hide lines", async () => {
    const body =
      "##   CONCEPTS  \n- a\n### Detail\n- b\n```md\n- not a bullet\n## Pitfalls\n```\n" +
      "- c\n## pitfalls\n* d\n  continued\n\tand tabbed\n\n  after a blank line\n-\n- e\n";
    const { skill } = await parseSkill(skillText("", body));
    assert.deepEqual(skill.concepts, ["a", "b", "c"]);
    assert.deepEqual(skill.pitfalls, ["d continued and tabbed", "e"]);
  });

  test("examples: ### starts one, backticks are trimmed, multi-line explanations join", async () => {
    const body = [
      "## Examples",
      "Intro text is ignored.",
      "### First ",
      "**Args:**   `` a `b` c ``  ",
      "**Explanation:** line one",
      "line two",
      "",
      "### Second",
      "**Args:** plain args",
      "**Explanation:**",
      "",
      "## Notes",
      "### Not an example",
      "**Args:** `x`",
      "**Explanation:** y",
    ].join("\n");
    const { skill, diagnostics } = await parseSkill(skillText("", body));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(skill.examples, [
      { task: "First", args: "a `b` c", explanation: "line one line two" },
      { task: "Second", args: "plain args", explanation: "" },
    ]);
  });

  test("examples written on one line, as docs/skills.md shows, keep each part", async () => {
    const body = [
      "## Examples",
      "",
      "### Sort a BAM file by coordinate",
      "",
      "**Args:** `sort -@ 4 -o sorted.bam input.bam` **Explanation:** -@ 4 adds four threads; -o names the",
      "output.",
      "",
      "### Build an index",
      "",
      "**Command:** `hisat2-build` **Args:** `-p 8 genome.fa genome_index` **Explanation:** The companion",
      "indexer writes genome_index.1.ht2 to .8.ht2.",
      "",
      "### A marker inside a code span is text",
      "**Args:** `grep '**Explanation:**' notes.md` **Explanation:** Finds the marker.",
      "",
    ].join("\n");
    const { skill, diagnostics } = await parseSkill(skillText("", body));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(skill.examples, [
      {
        task: "Sort a BAM file by coordinate",
        args: "sort -@ 4 -o sorted.bam input.bam",
        explanation: "-@ 4 adds four threads; -o names the output.",
      },
      {
        task: "Build an index",
        args: "-p 8 genome.fa genome_index",
        explanation: "The companion indexer writes genome_index.1.ht2 to .8.ht2.",
        command: "hisat2-build",
      },
      {
        task: "A marker inside a code span is text",
        args: "grep '**Explanation:**' notes.md",
        explanation: "Finds the marker.",
      },
    ]);
  });

  test("an Agent Skills body's own ## Examples prose is not read as worked examples", async () => {
    // Five skills of test/fixtures/agent-skills have such sections (22 subsections in all).
    const body = "## Examples\n\n### Example 1: a volcano plot\n\n```python\nplot(x)\n```\n" +
      "\n### Example 2\nPlain prose.\n";
    const { skill, diagnostics } = await parseSkill(skillText("", body));
    assert.deepEqual(skill.examples, []);
    assert.deepEqual(diagnostics, []);
  });

  test("an incomplete example is dropped with a warning, or fails a strict parse", async () => {
    const body = "## Examples\n### Good\n**Args:** `x`\n**Explanation:** y\n" +
      "### No explanation\n**Args:** `z`\n";
    const text = skillText("", body);
    const { skill, diagnostics } = await parseSkill(text, { source: "demo.md" });
    assert.deepEqual(skill.examples.map((e) => e.task), ["Good"]);
    assert.equal(diagnostics.length, 1);
    assert.deepEqual(
      { ...diagnostics[0], message: undefined },
      {
        severity: "warning",
        message: undefined,
        skill: "demo",
        source: "demo.md",
        line: 9,
        field: "examples",
      },
    );
    assert.match(diagnostics[0]!.message, /^Skill "demo" \(demo\.md:9\): example "No explanation"/);
    const error = await parseError(text, { strict: true, source: "demo.md" });
    assert.equal(error.line, 9);
    assert.equal(error.field, "examples");
    assert.match(error.message, /^Cannot parse skill "demo" \(demo\.md:9\): example/);
  });
});

describe("parseSkill: names and descriptions", () => {
  test("a name that differs from options.name loads under options.name with a warning (strict: fails)", async () => {
    const text = skillText();
    const { skill, diagnostics } = await parseSkill(text, { name: "other" });
    assert.equal(skill.name, "other");
    assert.equal(skill.declaredName, "demo");
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.field, "name");
    assert.equal(diagnostics[0]?.line, 2);
    assert.equal(diagnostics[0]?.skill, "other");
    assert.match(
      diagnostics[0]!.message,
      /"demo" but the file or folder name says "other"; loaded as "other"/,
    );
    await parseError(text, { name: "other", strict: true });
    const same = await parseSkill(text, { name: "demo" });
    assert.deepEqual(same.diagnostics, []);
    assert.equal("declaredName" in same.skill, false);
  });

  test("a display name in name loads under the folder name; without one it is refused", async () => {
    // 64 of the skills of one public collection write `name: Ahrefs Automation`.
    const text = "---\nname: Ahrefs Automation\ndescription: Automate Ahrefs. Use for SEO.\n---\n";
    const { skill, diagnostics } = await parseSkill(text, {
      name: "ahrefs-automation",
      source: "ahrefs-automation/SKILL.md",
    });
    assert.equal(skill.name, "ahrefs-automation");
    assert.equal(skill.declaredName, "Ahrefs Automation");
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.field, d.line, d.source]), [
      ["warning", "name", 2, "ahrefs-automation/SKILL.md"],
    ]);
    assert.match(diagnostics[0]!.message, /"Ahrefs Automation", which is not a skill name/);
    const strict = await parseError(text, { name: "ahrefs-automation", strict: true });
    assert.equal(strict.field, "name");
    const alone = await parseError(text, { source: "x.md" });
    assert.match(alone.message, /field "name": Invalid skill name "Ahrefs Automation"/);
    // An invalid folder name (zoho_mail-automation) cannot stand in: refused, naming both.
    const folder = await parseError("---\ndescription: d\n---\n", { name: "zoho_mail-automation" });
    assert.match(folder.message, /"name" is missing and the expected name "zoho_mail-automation"/);
  });

  test("a missing name falls back on options.name with a warning (strict: fails)", async () => {
    const text = "---\ndescription: No name. Use when testing.\n---\n";
    const { skill, diagnostics } = await parseSkill(text, { name: "fallback" });
    assert.equal(skill.name, "fallback");
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, "warning");
    assert.equal(diagnostics[0]!.skill, "fallback");
    const strict = await parseError(text, { name: "fallback", strict: true });
    assert.equal(strict.field, "name");
    const none = await parseError(text, { source: "x.md" });
    assert.equal(none.message, 'Cannot parse skill (x.md): field "name" is missing');
    const invalid = await parseError(text, { name: "../x" });
    assert.match(invalid.message, /expected name "\.\.\/x" is not a valid skill name/);
  });

  test("an invalid name fails with the field, the line and the cause", async () => {
    const error = await parseError("\n---\nname: ../etc\ndescription: d\n---\n", {
      source: "skills/x.md",
    });
    assert.equal(error.line, 3);
    assert.equal(error.field, "name");
    assert.ok(isInvalidSkillNameError(error.cause));
    assert.equal(
      error.message,
      'Cannot parse skill (skills/x.md:3): field "name": Invalid skill name "../etc": ' +
        'use 1-64 lowercase letters, digits and single hyphens, e.g. "samtools"',
    );
  });

  test("description is required and not empty; over 1024 characters warns", async () => {
    const missing = await parseError("---\nname: demo\n---\n");
    assert.equal(missing.field, "description");
    assert.equal(missing.skill, "demo");
    const empty = await parseError("---\nname: demo\ndescription: '  '\n---\n");
    assert.equal(empty.line, 3);
    assert.match(empty.message, /must not be empty/);
    const long = await parseSkill(`---\nname: demo\ndescription: ${"x".repeat(1025)}\n---\n`);
    assert.equal(long.diagnostics[0]?.field, "description");
    await parseError(`---\nname: demo\ndescription: ${"x".repeat(1025)}\n---\n`, { strict: true });
  });

  test("several errors: the first is thrown, all are in diagnostics", async () => {
    const error = await parseError("---\nname: Bad\ndescription: [x]\ntags: {a: 1}\n---\n");
    assert.equal(error.line, 2);
    assert.match(error.message, /\(and 1 more error\)$/);
    assert.deepEqual(error.diagnostics.map((d) => [d.severity, d.field, d.line]), [
      ["error", "name", 2],
      ["error", "description", 3],
      ["warning", "tags", 4],
    ]);
  });

  test("unknown keys are kept in meta with a warning (strict: fail)", async () => {
    const text = skillText("x-owner: team-a\nmodel: {name: opus, level: 2}\n");
    const { skill, diagnostics } = await parseSkill(text);
    assert.deepEqual(skill.meta, { "x-owner": "team-a", model: { name: "opus", level: 2 } });
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.field, d.line]), [
      ["warning", "x-owner", 4],
      ["warning", "model", 5],
    ]);
    const error = await parseError(text, { strict: true });
    assert.equal(error.field, "x-owner");
  });
});

describe("safeParseSkill", () => {
  test("returns the skill and its diagnostics", async () => {
    const result = await safeParseSkill(skillText("extra: 1\n"));
    assert.equal(result.success, true);
    if (result.success) {
      assert.equal(result.skill.name, "demo");
      assert.equal(result.diagnostics.length, 1);
    }
  });

  test("returns the error instead of throwing", async () => {
    const result = await safeParseSkill("no front matter", { source: "x.md" });
    assert.equal(result.success, false);
    if (!result.success) {
      assert.equal(result.error.name, "SkillParseError");
      assert.equal(result.error.line, 1);
    }
  });

  test("bad arguments still throw", async () => {
    await assert.rejects(safeParseSkill(42 as unknown as string), TypeError);
    await assert.rejects(parseSkill(skillText(), { maxBytes: -1 }), RangeError);
  });
});

describe("parseSkill: skills as published", () => {
  test("the 45 vendored skills parse; two warn on list values in metadata", async () => {
    const warned: string[] = [];
    for (const name of await skillFolders(REAL_SKILLS)) {
      const text = await readFile(join(REAL_SKILLS, name, "SKILL.md"), "utf8");
      const { skill, diagnostics } = await parseSkill(text, { name, source: `${name}/SKILL.md` });
      assert.equal(skill.name, name);
      assert.equal(skillKind(skill), "agent-skills", name);
      assert.deepEqual(skill.examples, [], `${name}: its ## Examples are prose`);
      if (diagnostics.some((d) => d.field?.startsWith("metadata."))) warned.push(name);
    }
    assert.deepEqual(warned, ["markdown-mermaid-writing", "rowan"]);
  });

  test("each hand-made shape: the loaded ones under their folder name, the refused with why", async () => {
    for (const name of SHAPES_LOADED) {
      const text = await readFile(join(SHAPES, name, "SKILL.md"), "utf8");
      assert.equal((await parseSkill(text, { name })).skill.name, name);
    }
    for (const [name, reason] of Object.entries(SHAPES_REFUSED)) {
      const text = await readFile(join(SHAPES, name, "SKILL.md"), "utf8");
      const error = await parseError(text, { name, source: `${name}/SKILL.md` });
      assert.match(error.message, reason, name);
      assert.match(error.message, new RegExp(`\\(${name}/SKILL\\.md:?\\d*\\)`), "names the file");
    }
  });
});
