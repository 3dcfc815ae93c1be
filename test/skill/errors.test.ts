import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertSkillName,
  InvalidSkillNameError,
  isSkillParseError,
  parseSkill,
  SkillParseError,
  type SkillParseErrorCode,
} from "../../lib/skill/mod.ts";

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

describe("the skill format's errors carry a code", () => {
  const failure = (text: string, options?: Parameters<typeof parseSkill>[1]) =>
    parseSkill(text, options).then(() => assert.fail("expected a SkillParseError"), (e) => e);
  const CASES: Array<[string, string, SkillParseErrorCode, Parameters<typeof parseSkill>[1]?]> = [
    ["no front matter", "just text", "syntax"],
    ["front matter not closed", "---\nname: a\n", "syntax"],
    ["front matter that is not YAML", "---\nname: [\n---\n", "syntax"],
    [
      "a text over maxBytes",
      `---\nname: a\ndescription: A.\n---\n${"x".repeat(200)}`,
      "too-large",
      {
        maxBytes: 100,
      },
    ],
    ["front matter over its cap", `---\nname: a\n${"k: v\n".repeat(40_000)}---\n`, "too-large"],
    [
      "a bad example command",
      "---\nname: demo\ndescription: Demo.\ncommand: 'a; rm'\n---\n",
      "invalid",
    ],
    [
      "a warning, in strict mode",
      "---\nname: demo\ndescription: Demo.\ntags: {a: 1}\n---\n",
      "invalid",
      {
        strict: true,
      },
    ],
    ["a missing description", "---\nname: demo\n---\n", "invalid"],
  ];
  for (const [what, text, code, options] of CASES) {
    test(`${what} is \`${code}\``, async () => {
      const error = await failure(text, options);
      assert.ok(error instanceof SkillParseError, String(error));
      assert.deepEqual([error.name, error.code], ["SkillParseError", code], error.message);
    });
  }

  test("an invalid name in the front matter is `invalid`, with the name error as its cause", async () => {
    const error = await failure("---\nname: Not_A_Name\ndescription: Demo.\n---\n");
    assert.equal(error.code, "invalid");
    assert.equal(error.field, "name");
    assert.ok(error.cause instanceof InvalidSkillNameError, String(error.cause));
  });

  test("the default code is `invalid`; a bad name argument is a TypeError with `invalid-name`", () => {
    assert.equal(new SkillParseError("x").code, "invalid");
    assert.equal(new SkillParseError("x", { code: "syntax" }).code, "syntax");
    const error = (() => {
      try {
        assertSkillName("../x");
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof InvalidSkillNameError && error instanceof TypeError);
    assert.deepEqual([error.name, error.code], ["InvalidSkillNameError", "invalid-name"]);
  });
});
