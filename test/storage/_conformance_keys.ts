/**
 * Conformance cases about keys: listing, prefixes, nesting, Unicode and the key rules.
 *
 * @module
 */

import { assertEquals, assertRejects } from "./_assert.ts";
import type { StorageConformanceCase } from "./_conformance_case.ts";

/** Keys every adapter must reject with `InvalidStorageKeyError`. */
const INVALID_KEYS: readonly unknown[] = [
  "",
  "..",
  ".",
  "../x",
  "a/../b",
  "/abs",
  "a//b",
  "a/./b",
  "a\\b",
  "nul\u0000byte",
  "tab\there",
  "del\u007f",
  "trailing/",
  "x".repeat(1025),
  42,
  null,
];

/** Keys that are unusual but valid: Unicode and characters file systems dislike. */
const ODD_KEYS: readonly string[] = [
  "skills/ünïcødé-技能.md",
  "emoji/😀👩🏽‍🔬.md",
  "rtl/مرحبا-שלום.md",
  ".hidden",
  "dir/.dotfile",
  "trailing-dot.",
  "trailing-space ",
  " leading-space",
  "percent%41%",
  'q?a*b:c"d<e>f|g',
  "..x/y..",
  "x".repeat(100) + "/y",
];

/** Key cases. */
export const keyCases: readonly StorageConformanceCase[] = [
  {
    name: "keys() lists every key sorted by code unit",
    async run(store) {
      const keys = ["b", "a/x", "a-b", "😀", "\uFF5E", "a/y", "A"];
      for (const key of keys) await store.set(key, key);
      // Code-unit order: "😀" (U+D83D…) sorts before "～" (U+FF5E).
      assertEquals(await store.keys(), ["A", "a-b", "a/x", "a/y", "b", "😀", "\uFF5E"]);
    },
  },
  {
    name: "keys(prefix) filters by plain string prefix",
    async run(store) {
      for (const key of ["skills/a.md", "skills/b.md", "skillset.md", "servers/x.json"]) {
        await store.set(key, key);
      }
      assertEquals(await store.keys("skills/"), ["skills/a.md", "skills/b.md"]);
      assertEquals(await store.keys("skill"), ["skills/a.md", "skills/b.md", "skillset.md"]);
      assertEquals(await store.keys(""), [
        "servers/x.json",
        "skills/a.md",
        "skills/b.md",
        "skillset.md",
      ]);
      assertEquals(await store.keys("nothing/"), []);
      assertEquals(await store.keys("../"), []);
      assertEquals(await store.keys("a\\"), []);
    },
  },
  {
    name: "nested keys: folders are not keys themselves",
    async run(store) {
      await store.set("a/b/c.md", "c");
      await store.set("a/b.md", "b");
      await store.set("a/c/d.md", "d");
      assertEquals(await store.get("a/b/c.md"), "c");
      assertEquals(await store.keys("a/b"), ["a/b.md", "a/b/c.md"]);
      assertEquals(await store.keys("a/b/"), ["a/b/c.md"]);
      assertEquals(await store.get("a"), undefined);
      assertEquals(await store.get("a/b"), undefined);
      await store.delete("a/b");
      await store.delete("a/c/d.md");
      assertEquals(await store.keys(), ["a/b.md", "a/b/c.md"]);
    },
  },
  {
    name: "unicode and unusual keys round-trip through set, get and keys",
    async run(store) {
      for (const key of ODD_KEYS) await store.set(key, `value of ${key}`);
      for (const key of ODD_KEYS) assertEquals(await store.get(key), `value of ${key}`, key);
      assertEquals(await store.keys(), [...ODD_KEYS].sort());
      assertEquals(await store.keys("skills/ü"), ["skills/ünïcødé-技能.md"]);
    },
  },
  {
    name: "a 1024-character key is valid",
    async run(store) {
      const key = `${"k".repeat(200)}/`.repeat(6).slice(0, 1023) + "z";
      assertEquals(key.length, 1024);
      await store.set(key, "long");
      assertEquals(await store.get(key), "long");
      assertEquals(await store.keys(), [key]);
    },
  },
  {
    name: "invalid keys are rejected with InvalidStorageKeyError and nothing is written",
    async run(store) {
      for (const key of INVALID_KEYS) {
        const k = key as string;
        const label = JSON.stringify(typeof key === "string" ? key.slice(0, 20) : key);
        await assertRejects(() => store.set(k, "x"), "InvalidStorageKeyError", `set ${label}`);
        await assertRejects(() => store.get(k), "InvalidStorageKeyError", `get ${label}`);
        await assertRejects(() => store.delete(k), "InvalidStorageKeyError", `delete ${label}`);
      }
      assertEquals(await store.keys(), []);
    },
  },
  {
    name: "prefixes with control characters are rejected with InvalidStorageKeyError",
    async run(store) {
      await store.set("a", "1");
      await assertRejects(() => store.keys("a\u0000"), "InvalidStorageKeyError");
      await assertRejects(() => store.keys(7 as unknown as string), "InvalidStorageKeyError");
      if (store.clear) await assertRejects(() => store.clear!("\n"), "InvalidStorageKeyError");
      assertEquals(await store.keys(), ["a"]);
    },
  },
];
