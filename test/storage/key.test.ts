import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertStorageKey,
  InvalidStorageKeyError,
  isInvalidStorageKeyError,
  isValidStorageKey,
} from "../../lib/storage/mod.ts";
import {
  describeKey,
  storageKeyProblem,
  storagePrefixProblem,
} from "../../lib/storage/_key_rules.ts";

const MESSAGES: ReadonlyArray<[unknown, string]> = [
  ["../x", 'Invalid storage key "../x": segment ".." is not allowed'],
  ["a/./b", 'Invalid storage key "a/./b": segment "." is not allowed'],
  ["", 'Invalid storage key "": must not be empty'],
  ["/abs", 'Invalid storage key "/abs": must not start with /'],
  ["dir/", 'Invalid storage key "dir/": must not end with /'],
  ["a//b", 'Invalid storage key "a//b": empty segment (//) is not allowed'],
  ["a\\b", 'Invalid storage key "a\\\\b": backslash is not allowed'],
  ["a\u0000b", 'Invalid storage key "a\\u0000b": control character U+0000 is not allowed'],
  ["\u007f", 'Invalid storage key "\\u007f": control character U+007F is not allowed'],
  [42, "Invalid storage key number: must be a string, not number"],
  ["x".repeat(1025), "must be at most 1024 characters, not 1025"],
];

describe("storage keys", () => {
  for (const [key, message] of MESSAGES) {
    test(`rejects ${JSON.stringify(key)?.slice(0, 30)} naming the rule`, () => {
      assert.equal(isValidStorageKey(key), false);
      const error = (() => {
        try {
          assertStorageKey(key);
        } catch (e) {
          return e;
        }
      })();
      assert.ok(error instanceof InvalidStorageKeyError);
      assert.ok(error instanceof TypeError);
      assert.equal(error.name, "InvalidStorageKeyError");
      assert.ok(error.message.includes(message), error.message);
      assert.equal(error.key, key);
      assert.ok(isInvalidStorageKeyError(error));
    });
  }

  test("accepts ordinary and Unicode keys up to 1024 characters", () => {
    for (
      const key of ["a", "skills/samtools.md", "ü/技能/😀", "..x", "x.", "a b", "x".repeat(1024)]
    ) {
      assert.equal(isValidStorageKey(key), true, key);
      assertStorageKey(key);
    }
  });

  test("the guard checks the name, not the class", () => {
    const foreign = Object.assign(new TypeError("x"), { name: "InvalidStorageKeyError" });
    assert.equal(isInvalidStorageKeyError(foreign), true);
    assert.equal(isInvalidStorageKeyError(new TypeError("x")), false);
    assert.equal(isInvalidStorageKeyError("InvalidStorageKeyError"), false);
  });
});

describe("storage key rules: messages", () => {
  test("a prefix that is not a string, null included", () => {
    assert.equal(storagePrefixProblem(5), "must be a string, not number");
    assert.equal(storagePrefixProblem(null), "must be a string, not null");
    assert.equal(storageKeyProblem(null), "must be a string, not null");
    assert.equal(storagePrefixProblem("a/"), undefined);
  });

  test("describeKey cuts past 80 characters, not at 80", () => {
    const eighty = "k".repeat(80);
    assert.equal(describeKey(eighty), JSON.stringify(eighty));
    assert.equal(describeKey(`${eighty}x`), JSON.stringify(`${eighty}…`));
    assert.equal(describeKey(null), "null");
  });
});
