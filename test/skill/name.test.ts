import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertSkillName,
  InvalidSkillNameError,
  isInvalidSkillNameError,
  isValidSkillName,
  normalizeSkillName,
  parseSkill,
  safeNormalizeSkillName,
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

describe("normalizeSkillName: ASCII before and after Unicode normalisation", () => {
  test("lowercases ASCII input", () => {
    assert.equal(normalizeSkillName("SAMtools"), "samtools");
    assert.equal(normalizeSkillName("BWA-MEM2"), "bwa-mem2");
    assert.equal(safeNormalizeSkillName("Samtools"), "samtools");
  });

  // Each lowercases or NFKC-normalises to an ASCII name that is valid today.
  const LOOK_ALIKES: [string, string][] = [
    ["\u212Aelvin", "\u212A"], // KELVIN SIGN → k
    ["samtool\u017F", "\u017F"], // LATIN SMALL LETTER LONG S → s (NFKC)
    ["\uff53amtools", "\uff53"], // FULLWIDTH s → s (NFKC)
    ["bwa\u2010mem2", "\u2010"], // HYPHEN
    ["\u0130ndex", "\u0130"], // LATIN CAPITAL LETTER I WITH DOT ABOVE → i + combining dot
    ["sam\u200btools", "\u200b"], // ZERO WIDTH SPACE
    ["\u{1d42c}amtools", "\u{1d42c}"], // MATHEMATICAL BOLD SMALL S, outside the BMP
  ];
  for (const [name, char] of LOOK_ALIKES) {
    test(`refuses ${JSON.stringify(name)}, naming the character`, () => {
      assert.equal(safeNormalizeSkillName(name), undefined);
      assert.throws(() => normalizeSkillName(name), (error: Error) => {
        assert.ok(isInvalidSkillNameError(error));
        const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
        assert.ok(
          error.message.includes(`${JSON.stringify(char)} (U+${code}) is not ASCII`),
          error.message,
        );
        assert.match(error.message, /skill names are ASCII only/);
        return true;
      });
      assert.equal(isValidSkillName(name), false);
    });
  }

  test("the Kelvin sign really does lowercase to an ASCII name (why the check exists)", () => {
    assert.equal("\u212Aelvin".toLowerCase(), "kelvin");
    assert.equal(isValidSkillName("kelvin"), true);
  });

  test("ASCII that is not a valid name, and non-strings, are refused as before", () => {
    assert.throws(() => normalizeSkillName("../x"), InvalidSkillNameError);
    assert.throws(() => normalizeSkillName("a--b"), /use 1-64 lowercase letters/);
    assert.throws(() => normalizeSkillName(7), /expected a string, got number/);
    assert.equal(safeNormalizeSkillName(undefined), undefined);
  });

  test("a front-matter name that is not ASCII fails the parse with the character named", async () => {
    const text = "---\nname: \u212Aelvin\ndescription: Demo. Use when testing.\n---\n";
    await assert.rejects(
      parseSkill(text, { source: "kelvin.md" }),
      /field "name": Invalid skill name "\u212Aelvin": "\u212A" \(U\+212A\) is not ASCII/,
    );
  });
});
