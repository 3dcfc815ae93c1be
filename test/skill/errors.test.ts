import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isSkillParseError, SkillParseError } from "../../lib/skill/mod.ts";

describe("SkillParseError", () => {
  test("formats the message from the skill, source, line and detail", () => {
    const cause = new Error("inner");
    const error = new SkillParseError('field "tags" must be a list of strings', {
      skill: "samtools",
      source: "skills/samtools.md",
      line: 4,
      field: "tags",
      cause,
    });
    assert.ok(error instanceof Error);
    assert.equal(error.name, "SkillParseError");
    assert.equal(
      error.message,
      'Cannot parse skill "samtools" (skills/samtools.md:4): field "tags" must be a list of strings',
    );
    assert.equal(error.skill, "samtools");
    assert.equal(error.line, 4);
    assert.equal(error.field, "tags");
    assert.equal(error.cause, cause);
    assert.deepEqual(error.diagnostics, []);
  });

  test("leaves out what is unknown", () => {
    assert.equal(new SkillParseError("x").message, "Cannot parse skill: x");
    assert.equal(new SkillParseError("x", { line: 3 }).message, "Cannot parse skill (line 3): x");
    assert.equal(
      new SkillParseError("x", { source: "a.md" }).message,
      "Cannot parse skill (a.md): x",
    );
    assert.equal("cause" in new SkillParseError("x"), false);
  });

  test("the type guard checks the name", () => {
    assert.equal(isSkillParseError(new SkillParseError("x")), true);
    const foreign = Object.assign(new Error("x"), { name: "SkillParseError" });
    assert.equal(isSkillParseError(foreign), true);
    assert.equal(isSkillParseError(new Error("x")), false);
    assert.equal(isSkillParseError({ name: "SkillParseError" }), false);
    assert.equal(isSkillParseError(undefined), false);
  });
});
