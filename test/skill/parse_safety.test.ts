import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_SKILL_MAX_BYTES, parseSkill } from "../../lib/skill/mod.ts";
import { fixture, parseError, skillText } from "./_helpers.ts";

const canary = globalThis as { __skillmuxCanary?: unknown };

describe("front matter safety", () => {
  test("---js front matter is refused, never executed", async () => {
    const error = await parseError(await fixture("broken/js-front-matter.md"), { source: "x.md" });
    assert.equal(canary.__skillmuxCanary, undefined);
    assert.equal(error.line, 1);
    assert.match(error.message, /front matter language "js" is not supported; use YAML/);
  });

  for (const language of ["javascript", "json", "coffee", "yaml"]) {
    test(`---${language} is refused`, async () => {
      const text = `---${language}\n{"name": "x", "description": "y"}\n---\n`;
      const error = await parseError(text);
      assert.match(error.message, new RegExp(`language "${language}" is not supported`));
    });
  }

  test("--- js with a space is refused too", async () => {
    const text = '--- js\nglobalThis.__skillmuxCanary = "executed"\n---\n';
    await parseError(text);
    assert.equal(canary.__skillmuxCanary, undefined);
  });

  test("YAML code tags are never executed", async () => {
    const text = skillText("x: !!js/function 'function () { globalThis.__skillmuxCanary = 1 }'\n");
    const { skill, diagnostics } = await parseSkill(text);
    assert.equal(typeof skill.meta.x, "string");
    assert.equal(canary.__skillmuxCanary, undefined);
    assert.ok(diagnostics.some((d) => d.field === "x" && /Unresolved tag/.test(d.message)));
    await parseError(text, { strict: true });
  });

  test("an alias bomb fails fast with a SkillParseError", async () => {
    const error = await parseError(await fixture("broken/alias-bomb.md"), { source: "bomb.md" });
    assert.match(error.message, /too many YAML aliases/);
    assert.equal(error.skill, "bomb");
  });

  test("a few aliases are fine", async () => {
    const { skill } = await parseSkill(
      skillText("x-base: &b {a: 1}\nx-copy: *b\ntags: [&t t, *t]\n"),
    );
    assert.deepEqual(skill.meta, { "x-base": { a: 1 }, "x-copy": { a: 1 } });
    assert.deepEqual(skill.tags, ["t", "t"]);
  });

  test("merge keys are plain keys", async () => {
    const { skill } = await parseSkill(skillText("x: &b {a: 1}\ny:\n  <<: *b\n"));
    assert.deepEqual(skill.meta.y, { "<<": { a: 1 } });
  });

  test("duplicate keys fail with the line and field", async () => {
    const error = await parseError(await fixture("broken/duplicate-keys.md"));
    assert.equal(error.line, 5);
    assert.equal(error.field, "name");
    assert.match(error.message, /duplicate key/);
    assert.equal((error.cause as Error).name, "YAMLParseError");
    const nested = await parseError(skillText("metadata:\n  a: x\n  a: y\n"));
    assert.equal(nested.line, 6);
    assert.equal(nested.field, "metadata");
  });

  test("__proto__, constructor and prototype keys change no prototype", async () => {
    const text = skillText(
      "__proto__: {polluted: 1}\nconstructor: {prototype: {polluted: 2}}\nprototype: {polluted: 3}\n" +
        "metadata:\n  __proto__: x\n  constructor: y\nx-deep: {a: {__proto__: {polluted: 4}}}\n",
    );
    const { skill, diagnostics } = await parseSkill(text);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(skill), Object.prototype);
    assert.equal(Object.getPrototypeOf(skill.meta), Object.prototype);
    assert.equal(Object.getPrototypeOf(skill.metadata), Object.prototype);
    assert.deepEqual(Object.keys(skill.meta), ["__proto__", "constructor", "prototype", "x-deep"]);
    const own = Object.getOwnPropertyDescriptor(skill.meta, "__proto__");
    assert.deepEqual(own?.value, { polluted: 1 });
    assert.equal(Object.getPrototypeOf(own?.value), Object.prototype);
    const deep = (skill.meta["x-deep"] as { a: Record<string, unknown> }).a;
    assert.ok(Object.hasOwn(deep, "__proto__"));
    assert.equal(Object.getPrototypeOf(deep), Object.prototype);
    assert.deepEqual(Object.keys(skill.metadata), ["__proto__", "constructor"]);
    assert.equal(Object.getOwnPropertyDescriptor(skill.metadata, "__proto__")?.value, "x");
    assert.deepEqual(diagnostics.map((d) => d.field), [
      "__proto__",
      "constructor",
      "prototype",
      "x-deep",
    ]);
  });

  test("the front matter must be a mapping", async () => {
    const error = await parseError(await fixture("broken/not-a-mapping.md"));
    assert.equal(error.line, 2);
    assert.match(error.message, /must be a YAML mapping/);
    await parseError("---\njust a string\n---\n");
  });

  test("an unclosed front matter and a missing one", async () => {
    assert.match((await parseError(await fixture("broken/unclosed.md"))).message, /not closed/);
    const none = await parseError(await fixture("broken/no-front-matter.md"));
    assert.match(none.message, /expected front matter/);
    assert.equal(none.line, 1);
    assert.equal((await parseError("")).line, 1);
  });

  test("YAML syntax errors carry the line of the original file", async () => {
    const text = "\r\n\r\n---\r\nname: demo\r\ndescription: d\r\ntags: [a, b\r\n---\r\n";
    const error = await parseError(text, { source: "s.md" });
    assert.equal(error.line, 6);
    assert.equal(error.field, "tags");
    assert.match(
      error.message,
      /^Cannot parse skill "demo" \(s\.md:6\): front matter is not valid YAML/,
    );
  });

  test("a bad tags field is reported on its line (a warning; strict: an error)", async () => {
    const text = await fixture("broken/bad-tags.md");
    const { skill, diagnostics } = await parseSkill(text, { source: "skills/badtags.md" });
    assert.deepEqual(skill.tags, []);
    assert.deepEqual(diagnostics.map((d) => d.message), [
      'Skill "badtags" (skills/badtags.md:4): field "tags" must be a list of strings, not a ' +
      "map; it is ignored",
    ]);
    const error = await parseError(text, { source: "skills/badtags.md", strict: true });
    assert.equal(
      error.message,
      'Cannot parse skill "badtags" (skills/badtags.md:4): field "tags" must be a list of ' +
        "strings, not a map; it is ignored",
    );
  });
});

describe("size caps", () => {
  test("the default cap is 256 KiB, checked in UTF-8 bytes before parsing", async () => {
    assert.equal(DEFAULT_SKILL_MAX_BYTES, 262_144);
    const ok = skillText("", "x".repeat(DEFAULT_SKILL_MAX_BYTES - skillText().length));
    assert.equal((await parseSkill(ok)).skill.name, "demo");
    const error = await parseError(`${ok}x`);
    assert.match(error.message, /more than 262144 bytes; the limit is 262144 bytes \(maxBytes\)/);
    // 100,000 characters but over 200,000 bytes.
    const wideText = skillText("", "é".repeat(100_000));
    const wide = await parseError(wideText, { maxBytes: 150_000 });
    const bytes = new TextEncoder().encode(wideText).length;
    assert.match(wide.message, new RegExp(`text is ${bytes} bytes; the limit is 150000 bytes`));
    // Not even front matter is looked at.
    await parseError(`---js\n${"x".repeat(300_000)}`).then((e) => assert.match(e.message, /bytes/));
  });

  test("a 1 MB front matter is refused by the 64 KiB front-matter cap", async () => {
    const big = skillText(`x-big: ${"a".repeat(1_000_000)}\n`);
    assert.match((await parseError(big)).message, /the limit is 262144 bytes/);
    const error = await parseError(big, { maxBytes: 2_000_000 });
    assert.match(error.message, /front matter is larger than 65536 bytes/);
    const unclosed = await parseError(`---\n${"a: b\n".repeat(20_000)}`, { maxBytes: 2_000_000 });
    assert.match(unclosed.message, /front matter is larger than 65536 bytes/);
  });
});
