// The saved keyword index's housekeeping, where the first mutation run of `catalog` found it
// loosely held (issue 19): a storage keeps the newest 64 saves and deletes the older ones, a save
// loaded again counts as newest, and a storage that fails to read or to write costs only the
// indexing. `forgetProcessSegments()` stands for a new process. Catalogs of host functions only
// (one segment each), in memory storage; the failing storage wraps a real one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCatalog, createMemoryStorage } from "../../lib/mod.ts";
import type { Storage } from "../../lib/storage/types.ts";
import { indexedDocuments } from "../../lib/catalog/search/_keyword_index.ts";
import { forgetProcessSegments } from "../../lib/catalog/build/_index_store.ts";

const build = (n: number, indexStorage: Storage) =>
  createCatalog({
    functions: [{ name: `fn_${n}`, description: `Frobnicate widget ${n}`, handler: () => n }],
    indexStorage,
  });
const list = async (storage: Storage) =>
  JSON.parse((await storage.get("keyword-index.json")) ?? "[]") as string[];

test("the newest 64 saves are kept, the older deleted; a save loaded again is newest", async () => {
  forgetProcessSegments();
  const storage = createMemoryStorage();
  const keyOf: string[] = [];
  for (let n = 0; n < 66; n++) {
    await build(n, storage);
    const now = await list(storage);
    keyOf.push(now[now.length - 1]);
  }
  assert.equal(new Set(keyOf).size, 66);
  const kept = await list(storage);
  assert.deepEqual(kept, keyOf.slice(2));
  assert.equal(await storage.get(keyOf[0]), undefined);
  assert.equal(await storage.get(keyOf[1]), undefined);
  assert.deepEqual((await storage.keys("keyword-index/")).sort(), keyOf.slice(2).sort());

  // A new process loads save 2 (indexing nothing): it moves to the end of the list...
  forgetProcessSegments();
  const before = indexedDocuments();
  await build(2, storage);
  assert.equal(indexedDocuments(), before, "loaded, not indexed");
  assert.deepEqual(await list(storage), [...keyOf.slice(3), keyOf[2]]);
  // ...so the next new save pushes out save 3, the oldest now, not save 2.
  await build(66, storage);
  const after = await list(storage);
  assert.equal(after.length, 64);
  assert.equal(after.includes(keyOf[3]), false);
  assert.equal(after.includes(keyOf[2]), true);
  assert.equal(await storage.get(keyOf[3]), undefined);
  assert.notEqual(await storage.get(keyOf[2]), undefined);
});

/** `storage`, failing to read or to write its keyword-index keys when asked to. */
function failing(storage: Storage, fail: { get?: boolean; set?: boolean }): Storage {
  const index = (key: string) => key.startsWith("keyword-index");
  return {
    ...storage,
    get: (key, options) =>
      fail.get && index(key) ? Promise.reject(new Error("read failed")) : storage.get(key, options),
    set: (key, value, options) =>
      fail.set && index(key)
        ? Promise.reject(new Error("write failed"))
        : storage.set(key, value, options),
    delete: (key, options) => storage.delete(key, options),
    keys: (prefix, options) => storage.keys(prefix, options),
  };
}

test("a storage that cannot write: the catalog builds and ranks, nothing is listed", async () => {
  forgetProcessSegments();
  const inner = createMemoryStorage();
  const catalog = await build(1, failing(inner, { set: true }));
  assert.equal(catalog.rank("frobnicate widget")[0].entry.id, "fn_1");
  assert.deepEqual(await inner.keys(), []);
  // The next process finds nothing saved and indexes again, then saves once it can.
  forgetProcessSegments();
  const before = indexedDocuments();
  await build(1, inner);
  assert.equal(indexedDocuments() - before, 1);
  assert.equal((await list(inner)).length, 1);
});

test("a storage that cannot read: the segment is indexed and saved again", async () => {
  forgetProcessSegments();
  const inner = createMemoryStorage();
  await build(1, inner);
  const [key] = await list(inner);
  forgetProcessSegments();
  const before = indexedDocuments();
  const catalog = await build(1, failing(inner, { get: true }));
  assert.equal(indexedDocuments() - before, 1, "indexed, the save unread");
  assert.equal(catalog.rank("frobnicate widget")[0].entry.id, "fn_1");
  assert.notEqual(await inner.get(key), undefined);
});

test("a save that is not JSON, or not an index, is indexed again and saved in its place", async () => {
  for (const damaged of ["{ not json", JSON.stringify({ search: 5, lines: "x" })]) {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await build(1, storage);
    const [key] = await list(storage);
    await storage.set(key, damaged);
    forgetProcessSegments();
    const before = indexedDocuments();
    const catalog = await build(1, storage);
    assert.equal(indexedDocuments() - before, 1, `indexed again: ${damaged}`);
    assert.equal(catalog.rank("frobnicate widget")[0].entry.id, "fn_1");
    // ...and saved again in its place: the next process loads it.
    forgetProcessSegments();
    const again = indexedDocuments();
    await build(1, storage);
    assert.equal(indexedDocuments(), again, `loaded after the new save: ${damaged}`);
  }
});
