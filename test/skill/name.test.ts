import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertSkillName,
  InvalidSkillNameError,
  isInvalidSkillNameError,
  isValidSkillName,
  SKILL_NAME_MAX_LENGTH,
} from "../../lib/skill/mod.ts";

const VALID = ["samtools", "a", "0", "bwa-mem2", "a-b-c", "x".repeat(64), "1-2"];
const INVALID: unknown[] = [
  "../x",
  "/etc/passwd",
  "a/b",
  "a\\b",
  "",
  "x".repeat(65),
  "a--b",
  "-a",
  "a-",
  "-",
  "Samtools",
  "sam tools",
  "sam_tools",
  "sam.tools",
  ".",
  "..",
  "é",
  "a\n",
  " a",
  123,
  null,
  undefined,
  ["a"],
  { name: "a" },
];

describe("skill names", () => {
  test("the maximum length is 64", () => {
    assert.equal(SKILL_NAME_MAX_LENGTH, 64);
  });

  for (const name of VALID) {
    test(`accepts ${JSON.stringify(name)}`, () => {
      assert.equal(isValidSkillName(name), true);
      assert.doesNotThrow(() => assertSkillName(name));
    });
  }

  for (const name of INVALID) {
    test(`rejects ${JSON.stringify(name) ?? String(name)}`, () => {
      assert.equal(isValidSkillName(name), false);
      assert.throws(() => assertSkillName(name), InvalidSkillNameError);
    });
  }

  test("the error is a TypeError that shows the name and the rule", () => {
    try {
      assertSkillName("../x");
      assert.fail("expected a throw");
    } catch (error) {
      assert.ok(error instanceof TypeError);
      assert.ok(isInvalidSkillNameError(error));
      assert.equal(error.name, "InvalidSkillNameError");
      assert.equal(error.value, "../x");
      assert.equal(
        error.message,
        'Invalid skill name "../x": use 1-64 lowercase letters, digits and single hyphens, ' +
          'e.g. "samtools"',
      );
    }
  });

  test("long names are truncated in the message", () => {
    assert.throws(() => assertSkillName("A".repeat(500)), (error: Error) => {
      const shown = /^Invalid skill name (".*?"): /.exec(error.message)?.[1] ?? "";
      assert.ok(shown.length <= 80 && shown.startsWith('"AAA'), shown);
      assert.ok(shown.endsWith('…"'), shown);
      return true;
    });
  });

  test("non-strings are described by type", () => {
    assert.throws(() => assertSkillName(42), /expected a string, got number/);
    assert.throws(() => assertSkillName(null), /expected a string, got null/);
  });

  test("the type guard checks the name only", () => {
    const foreign = Object.assign(new TypeError("x"), { name: "InvalidSkillNameError" });
    assert.equal(isInvalidSkillNameError(foreign), true);
    assert.equal(isInvalidSkillNameError(new TypeError("x")), false);
    assert.equal(isInvalidSkillNameError({ name: "InvalidSkillNameError" }), false);
  });
});
