/**
 * Conformance cases for the optional `compareAndSet`: skipped by adapters that leave it out.
 *
 * @module
 */

import { assert, assertEquals, assertRejects } from "./_assert.ts";
import type { StorageConformanceCase } from "./_conformance_case.ts";

/** compareAndSet cases. */
export const casCases: readonly StorageConformanceCase[] = [
  {
    name: "compareAndSet creates, swaps and deletes only when the value is the expected one",
    async run(store) {
      if (!store.compareAndSet) return;
      assertEquals(await store.compareAndSet("k", undefined, "one"), true, "create");
      assertEquals(await store.compareAndSet("k", undefined, "again"), false, "create twice");
      assertEquals(await store.compareAndSet("k", "two", "three"), false, "wrong expected");
      assertEquals(await store.get("k"), "one");
      assertEquals(await store.compareAndSet("k", "one", "two"), true, "swap");
      assertEquals(await store.compareAndSet("k", "one", undefined), false, "stale delete");
      assertEquals(await store.compareAndSet("k", "two", undefined), true, "delete");
      assertEquals(await store.keys(), []);
      assertEquals(await store.compareAndSet("gone", "x", undefined), false, "delete missing");
      assertEquals(await store.compareAndSet("q?a:b$", undefined, ""), true, "odd key");
      assertEquals(await store.get("q?a:b$"), "", "empty value kept");
    },
  },
  {
    name: "compareAndSet: 40 parallel read-increment-swap loops count to 40",
    async run(store) {
      if (!store.compareAndSet) return;
      await store.set("counter", "0");
      let conflicts = 0;
      await Promise.all(Array.from({ length: 40 }, async () => {
        for (;;) {
          const seen = await store.get("counter");
          if (await store.compareAndSet!("counter", seen, String(Number(seen) + 1))) return;
          conflicts++;
        }
      }));
      assertEquals(await store.get("counter"), "40");
      assert(conflicts >= 0);
    },
  },
  {
    name: "compareAndSet checks the key and the value first",
    async run(store) {
      if (!store.compareAndSet) return;
      await assertRejects(
        () => store.compareAndSet!("../x", undefined, "v"),
        "InvalidStorageKeyError",
      );
      await assertRejects(
        () => store.compareAndSet!("x", undefined, 7 as unknown as string),
        "TypeError",
      );
      assertEquals(await store.keys(), []);
    },
  },
];
