import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseSkill } from "../../lib/skill/mod.ts";
import { fixture, parseError, withoutDigest } from "./_helpers.ts";

describe("parseSkill: legacy TOML", () => {
  test("reads the fixture", async () => {
    const text = await fixture("bcftools.toml");
    const { skill, diagnostics } = await parseSkill(text, { name: "bcftools" });
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.format, "toml");
    assert.equal(skill.body, "");
    assert.equal(skill.name, "bcftools");
    assert.equal(skill.category, "variant-calling");
    assert.deepEqual(skill.tags, ["vcf", "bcf", "variants"]);
    assert.equal(skill.minVersion, "1.10", "the float 1.10 keeps its source text");
    assert.equal(skill.concepts.length, 3);
    assert.equal(skill.pitfalls[1], "Region queries (-r) need an index (bcftools index).");
    assert.deepEqual(skill.examples[1], {
      task: "Index a compressed VCF",
      args: "index filtered.vcf.gz",
      explanation: "Writes a CSI index.",
    });
  });

  test("CRLF and a BOM parse like LF", async () => {
    const text = await fixture("bcftools.toml");
    const base = withoutDigest((await parseSkill(text)).skill);
    const crlf = withoutDigest((await parseSkill(`\ufeff${text.replaceAll("\n", "\r\n")}`)).skill);
    assert.deepEqual(crlf, base);
  });

  test("format: 'toml' forces TOML; 'markdown' refuses it", async () => {
    const text = '[meta]\nname = "a"\ndescription = "d"\n';
    assert.equal((await parseSkill(text, { format: "toml" })).skill.format, "toml");
    const error = await parseError(text, { format: "markdown" });
    assert.match(error.message, /expected front matter/);
    const noMeta = await parseError('name = "a"\n', { format: "toml" });
    assert.match(noMeta.message, /needs a \[meta\] table/);
  });

  test("a TOML syntax error names its line", async () => {
    const error = await parseError('[meta]\nname = "a"\ndescription = \n', { source: "a.toml" });
    assert.equal(error.line, 3);
    assert.match(error.message, /^Cannot parse skill "a" \(a\.toml:3\): not valid TOML/);
  });

  test("wrong types name the field and line", async () => {
    const tags = '[meta]\nname = "a"\ndescription = "d"\ntags = { x = 1 }\n';
    assert.equal((await parseSkill(tags)).diagnostics[0]?.field, "tags");
    const error = await parseError(tags, { strict: true });
    assert.equal(error.field, "tags");
    assert.equal(error.line, 4);
    const concepts = await parseError(
      '[meta]\nname = "a"\ndescription = "d"\n[context]\nconcepts = [1, 2]\n',
    );
    assert.equal(concepts.field, "context.concepts");
    assert.equal(concepts.line, 5);
  });

  test("comma-separated tags, unknown keys and incomplete examples", async () => {
    const text = [
      "[meta]",
      'name = "a"',
      'description = "d"',
      'tags = "x, y"',
      "stars = 5",
      "[extra]",
      "k = 1",
      "[[examples]]",
      'task = "t1"',
      'args = "a1"',
      'explanation = "e1"',
      "[[examples]]",
      'task = "t2"',
      'args = "a2"',
    ].join("\n");
    const { skill, diagnostics } = await parseSkill(text);
    assert.deepEqual(skill.tags, ["x", "y"]);
    assert.deepEqual(skill.meta, { stars: 5, extra: { k: 1 } });
    assert.equal(Object.getPrototypeOf(skill.meta.extra), Object.prototype);
    assert.deepEqual(skill.examples.map((e) => e.task), ["t1"]);
    assert.deepEqual(diagnostics.map((d) => [d.field, d.line]), [
      ["examples[1]", 12],
      ["stars", 5],
      ["extra", 6],
    ]);
    const strict = await parseError(text, { strict: true });
    assert.equal(strict.field, "examples[1]");
  });

  test("__proto__ keys in TOML change no prototype", async () => {
    const text = '[meta]\nname = "a"\ndescription = "d"\n__proto__ = { polluted = 1 }\n' +
      "[constructor.prototype]\npolluted = 2\n";
    const { skill } = await parseSkill(text);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(skill.meta), Object.prototype);
    assert.ok(Object.hasOwn(skill.meta, "__proto__"));
    assert.deepEqual(Object.keys(skill.meta), ["__proto__", "constructor"]);
  });
});
