/**
 * Conformance cases about values: get, set, overwrite, delete, sizes and Unicode.
 *
 * @module
 */

import { assertEquals, assertRejects } from "./_assert.ts";
import type { StorageConformanceCase } from "./_conformance_case.ts";

/** Strings that must survive a round trip byte for byte. */
const UNICODE_VALUES: readonly string[] = [
  "héllo wörld",
  "技能 スキル 기술",
  "emoji 😀👩🏽‍🔬🏳️‍🌈",
  "RTL مرحبا שלום",
  "\uFEFFstarts with a byte order mark",
  "combining e\u0301 and \u212B",
  "line\r\nbreaks\nand\ttabs and a NUL \u0000 inside",
  '{"json": [1, 2, 3]}',
];

/** Value cases. */
export const valueCases: readonly StorageConformanceCase[] = [
  {
    name: "get of a missing key resolves undefined",
    async run(store) {
      assertEquals(await store.get("missing.md"), undefined);
      assertEquals(await store.get("deeply/missing/key.md"), undefined);
    },
  },
  {
    name: "set then get returns the value",
    async run(store) {
      await store.set("a.md", "# A");
      assertEquals(await store.get("a.md"), "# A");
    },
  },
  {
    name: "set overwrites the previous value",
    async run(store) {
      await store.set("a.md", "first, and rather long");
      await store.set("a.md", "second");
      assertEquals(await store.get("a.md"), "second");
      assertEquals(await store.keys(), ["a.md"]);
    },
  },
  {
    name: "empty-string value is kept (not undefined)",
    async run(store) {
      await store.set("empty", "");
      assertEquals(await store.get("empty"), "");
      assertEquals(await store.keys(), ["empty"]);
    },
  },
  {
    name: "1 MiB value round-trips",
    async run(store) {
      const chunk = "0123456789abcdef-ü-技-😀\n";
      const value = chunk.repeat(Math.ceil((1 << 20) / chunk.length)).slice(0, 1 << 20);
      await store.set("big/value.txt", value);
      const back = await store.get("big/value.txt");
      assertEquals(back?.length, value.length, "length");
      assertEquals(back === value, true, "same content");
    },
  },
  {
    name: "unicode values round-trip exactly",
    async run(store) {
      for (const [i, value] of UNICODE_VALUES.entries()) await store.set(`v${i}`, value);
      for (const [i, value] of UNICODE_VALUES.entries()) {
        assertEquals(await store.get(`v${i}`), value, `value ${i}`);
      }
    },
  },
  {
    name: "set rejects a non-string value with TypeError and writes nothing",
    async run(store) {
      await assertRejects(() => store.set("n", 42 as unknown as string), "TypeError");
      await assertRejects(() => store.set("u", undefined as unknown as string), "TypeError");
      assertEquals(await store.keys(), []);
    },
  },
  {
    name: "delete removes the key and leaves others",
    async run(store) {
      await store.set("a.md", "a");
      await store.set("b.md", "b");
      await store.delete("a.md");
      assertEquals(await store.get("a.md"), undefined);
      assertEquals(await store.get("b.md"), "b");
      assertEquals(await store.keys(), ["b.md"]);
    },
  },
  {
    name: "delete of a missing key is a no-op",
    async run(store) {
      await store.delete("never/was.md");
      await store.set("x", "1");
      await store.delete("x");
      await store.delete("x");
      assertEquals(await store.keys(), []);
    },
  },
];
