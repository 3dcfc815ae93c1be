/**
 * Conformance cases about concurrency, clear, abort signals and dispose.
 *
 * @module
 */

import { assert, assertEquals, assertRejects } from "./_assert.ts";
import type { StorageConformanceCase } from "./_conformance_case.ts";

function aborted(reason?: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

/** Concurrency, clear, abort and dispose cases. */
export const lifecycleCases: readonly StorageConformanceCase[] = [
  {
    name: "100 parallel writes to different keys all land",
    async run(store) {
      const keys = Array.from({ length: 100 }, (_, i) => `par/${i % 10}/key-${i}.md`);
      await Promise.all(keys.map((key) => store.set(key, `value ${key}`)));
      const values = await Promise.all(keys.map((key) => store.get(key)));
      assertEquals(values, keys.map((key) => `value ${key}`));
      assertEquals(await store.keys("par/"), [...keys].sort());
    },
  },
  {
    name: "20 parallel writes to one key leave one complete value",
    async run(store) {
      const values = Array.from({ length: 20 }, (_, i) => `${i}:`.padEnd(4096 + i * 97, "x"));
      await Promise.all(values.map((value) => store.set("race.md", value)));
      const final = await store.get("race.md");
      assert(values.includes(final!), `not one of the written values: ${final?.slice(0, 20)}`);
      assertEquals(await store.keys(), ["race.md"]);
    },
  },
  {
    name: "clear() removes every key",
    async run(store) {
      if (!store.clear) return;
      for (const key of ["a", "b/c", "d/e/f"]) await store.set(key, key);
      await store.clear();
      assertEquals(await store.keys(), []);
      assertEquals(await store.get("b/c"), undefined);
      await store.set("b/c", "again");
      assertEquals(await store.get("b/c"), "again");
    },
  },
  {
    name: "clear(prefix) removes only keys with that prefix",
    async run(store) {
      if (!store.clear) return;
      for (const key of ["cache/a", "cache/b/c", "cached", "skills/x.md"]) {
        await store.set(key, key);
      }
      await store.clear("cache/");
      assertEquals(await store.keys(), ["cached", "skills/x.md"]);
      await store.clear("nothing/");
      assertEquals(await store.keys(), ["cached", "skills/x.md"]);
    },
  },
  {
    name: "an aborted signal rejects every call with its reason and writes nothing",
    async run(store) {
      await store.set("kept", "old");
      const reason = new Error("stop right there");
      const signal = aborted(reason);
      const calls: Array<() => Promise<unknown>> = [
        () => store.get("kept", { signal }),
        () => store.set("kept", "new", { signal }),
        () => store.set("fresh", "new", { signal }),
        () => store.delete("kept", { signal }),
        () => store.keys("", { signal }),
      ];
      if (store.clear) calls.push(() => store.clear!("", { signal }));
      for (const call of calls) await assertRejects(call, reason);
      await assertRejects(() => store.get("kept", { signal: aborted() }), "AbortError");
      assertEquals(await store.keys(), ["kept"]);
      assertEquals(await store.get("kept"), "old");
    },
  },
  {
    name: "after dispose() every call rejects with StorageDisposedError",
    async run(store) {
      if (!store.dispose) return;
      await store.set("a", "1");
      await store.dispose();
      const name = "StorageDisposedError";
      await assertRejects(() => store.get("a"), name);
      await assertRejects(() => store.set("a", "2"), name);
      await assertRejects(() => store.delete("a"), name);
      await assertRejects(() => store.keys(), name);
      if (store.clear) await assertRejects(() => store.clear!(), name);
      await store.dispose();
    },
  },
];
