// Read-modify-write of one storage key (lib/mcp/registry/_swap.ts), over memory storage: a
// change that lost a race is re-applied to the value that won; after 64 lost races it gives up
// with a ConflictError naming what it changed; an unchanged value writes nothing; without
// compareAndSet it writes (or deletes) directly, and two changes of one key from this process are
// serialised, so neither is lost.
import assert from "node:assert/strict";
import { test } from "node:test";
import { swap } from "../../../lib/mcp/registry/_swap.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";

/** `inner` with `compareAndSet` replaced (or hidden when `cas` is null), its writes counted. */
function wrapped(inner: Storage, cas?: Storage["compareAndSet"] | null) {
  const writes: string[] = [];
  const storage = new Proxy(inner, {
    get(target, prop) {
      if (prop === "compareAndSet" && cas !== undefined) return cas ?? undefined;
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "set" || prop === "delete" || prop === "compareAndSet") {
        return (...args: unknown[]) => {
          writes.push(String(prop));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  }) as Storage;
  return { storage, writes };
}

const append = (suffix: string, seen: Array<string | undefined> = []) => (current?: string) => {
  seen.push(current);
  return Promise.resolve({ next: `${current ?? ""}${suffix}`, result: suffix });
};

test("a change that lost a race is re-applied to the value that won", async () => {
  const inner = createMemoryStorage({ initial: { k: "a" } });
  let raced = false;
  const { storage } = wrapped(inner, async (key, expected, next) => {
    if (!raced) {
      raced = true;
      await inner.set(key, "a+other"); // another writer wins first
    }
    return await inner.compareAndSet!(key, expected, next);
  });
  const seen: Array<string | undefined> = [];
  assert.equal(await swap(storage, "k", append("+mine", seen), "k"), "+mine");
  assert.deepEqual(seen, ["a", "a+other"]);
  assert.equal(await inner.get("k"), "a+other+mine");
});

test("after 64 lost races it gives up, naming what it changed", async () => {
  const inner = createMemoryStorage({ initial: { k: "a" } });
  const { storage } = wrapped(inner, () => Promise.resolve(false));
  const seen: Array<string | undefined> = [];
  await assert.rejects(swap(storage, "k", append("+x", seen), "server s-1"), {
    name: "ConflictError",
    message: "Cannot update server s-1: other writers kept changing it (64 tries)",
  });
  assert.equal(seen.length, 64);
  assert.equal(await inner.get("k"), "a");
});

test("an unchanged value writes nothing", async () => {
  const { storage, writes } = wrapped(createMemoryStorage({ initial: { k: "a" } }));
  const same = (current?: string) => Promise.resolve({ next: current, result: "same" });
  assert.equal(await swap(storage, "k", same, "k"), "same");
  assert.deepEqual(writes, []);
});

test("without compareAndSet: written or deleted directly; one process's changes serialised", async () => {
  const inner = createMemoryStorage({ initial: { k: "a" } });
  const { storage, writes } = wrapped(inner, null);
  assert.equal(storage.compareAndSet, undefined);
  const slow = (suffix: string) => async (current?: string) => {
    await new Promise((r) => setTimeout(r, 20)); // both read before either writes, unless serialised
    return { next: `${current}${suffix}`, result: suffix };
  };
  await Promise.all([swap(storage, "k", slow("1"), "k"), swap(storage, "k", slow("2"), "k")]);
  assert.equal(await inner.get("k"), "a12");
  const gone = () => Promise.resolve({ next: undefined, result: "gone" });
  assert.equal(await swap(storage, "k", gone, "k"), "gone");
  assert.equal(await inner.get("k"), undefined);
  assert.deepEqual(writes, ["set", "set", "delete"]);
});
