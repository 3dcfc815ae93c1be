// The saves of the keyword index kept between processes (lib/catalog/build/_index_store.ts): the newest
// 64 kept and the older deleted, a save loaded again counted as newest, a warm build making no
// round trip, a load rewriting only the list, a failed save tried again, a storage that cannot read
// or write costing only the indexing, a loaded save counted as used beside a new one, and a damaged
// list (not an array, not JSON, naming other keys) neither keeping nor deleting what it should not.
// `forgetProcessSegments()` stands for a new process. Catalogs of host functions (one segment
// each) and skills, in memory storage; the failing and logging storages wrap a real one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../../lib/mod.ts";
import type { Storage } from "../../../lib/storage/types.ts";
import { indexedDocuments } from "../../../lib/catalog/search/_keyword_index.ts";
import { forgetProcessSegments } from "../../../lib/catalog/build/_index_store.ts";
import { skillDoc } from "../_entries.ts";

// Catalogs of host functions only (one segment each), in memory storage.
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

/** `inner`, logging each call under the kind of key (`list` or `save`) and failing some writes. */
function logged(inner: Storage, failSet: (key: string) => boolean = () => false) {
  const calls: string[] = [];
  const kind = (key: string) => key === "keyword-index.json" ? "list" : "save";
  const storage: Storage = {
    get: (key, options) => (calls.push(`get ${kind(key)}`), inner.get(key, options)),
    set: (key, value, options) => {
      calls.push(`set ${kind(key)}`);
      return failSet(key)
        ? Promise.reject(new Error("write refused"))
        : inner.set(key, value, options);
    },
    delete: (key, options) => (calls.push(`delete ${kind(key)}`), inner.delete(key, options)),
    keys: (prefix, options) => inner.keys(prefix, options),
  };
  return { storage, calls, take: () => calls.splice(0) };
}

const fn = (name: string) => ({ name, description: `Frobnicate the ${name}`, handler: () => name });

describe("the keyword index in a storage", () => {
  test("a warm build makes no round trip; a load rewrites only the list; nothing is written twice", async () => {
    forgetProcessSegments();
    const { storage, take } = logged(createMemoryStorage());
    const build = (indexStorage?: Storage) =>
      createCatalog({ functions: [fn("widgets")], ...(indexStorage ? { indexStorage } : {}) });
    await build(storage);
    assert.deepEqual(take(), ["get save", "set save", "get list", "set list"], "first process");
    await build(storage);
    assert.deepEqual(take(), [], "the same process again");
    forgetProcessSegments();
    await build(storage);
    assert.deepEqual(take(), ["get save", "get list", "set list"], "a new process loads");
    await build(storage);
    assert.deepEqual(take(), [], "and then asks nothing");
    // A process that indexed the entries before it had the storage does not write the save again.
    forgetProcessSegments();
    await build();
    await build(storage);
    assert.deepEqual(take(), ["get save", "get list", "set list"], "indexed here, saved there");
  });

  test("a save the storage refused is tried again by the next build of the process", async () => {
    forgetProcessSegments();
    let refuse = true;
    const inner = createMemoryStorage();
    const { storage } = logged(inner, (key) => refuse && key.startsWith("keyword-index/"));
    await createCatalog({ functions: [fn("gears")], indexStorage: storage });
    assert.deepEqual(await inner.keys("keyword-index/"), []);
    refuse = false;
    await createCatalog({ functions: [fn("gears")], indexStorage: storage });
    const saves = await inner.keys("keyword-index/");
    assert.equal(saves.length, 1);
    assert.deepEqual(await list(inner), saves);
  });

  /** A catalog of a host function and a user skill (two segments). */
  const twoSources = (indexStorage: Storage, skill: string) =>
    createCatalog({
      functions: [fn("levers")],
      resolver: createResolver({
        sources: [createStorageSource({
          label: "user",
          storage: createMemoryStorage({ initial: { "pulleys.md": skillDoc("pulleys", skill) } }),
        })],
      }),
      indexStorage,
    });
  /** A first process that saves the host's segment, then the skill's: their keys, in that order. */
  async function hostThenSkill(storage: Storage) {
    forgetProcessSegments();
    await createCatalog({ functions: [fn("levers")], indexStorage: storage });
    await twoSources(storage, "Rigs pulleys.");
    const [host, skill] = await list(storage);
    assert.equal((await list(storage)).length, 2);
    return { host, skill };
  }

  test("a save loaded beside a changed source's new one counts as used: the old one goes first", async () => {
    const storage = createMemoryStorage();
    const { host, skill } = await hostThenSkill(storage);
    forgetProcessSegments();
    await twoSources(storage, "Rigs pulleys and blocks.");
    const now = await list(storage);
    assert.equal(now.length, 3);
    assert.deepEqual(now.slice(0, 2), [skill, host]);
  });

  test("a save that did not load and could not be replaced does not count as used", async () => {
    const inner = createMemoryStorage();
    const { host, skill } = await hostThenSkill(inner);
    await inner.set(host, "{ not json");
    forgetProcessSegments();
    const { storage } = logged(inner, (key) => key === host);
    await twoSources(storage, "Rigs pulleys.");
    assert.equal(await inner.get(host), "{ not json");
    assert.deepEqual(await list(inner), [host, skill]);
  });

  test("a list that is not an array is replaced by one naming the saves only", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await storage.set("keyword-index.json", JSON.stringify({ saves: ["keyword-index/x"] }));
    await createCatalog({ functions: [fn("sprockets")], indexStorage: storage });
    assert.deepEqual(await list(storage), await storage.keys("keyword-index/"));
  });

  test("a list that is not JSON is replaced too: new saves are listed (so pruned) again", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await storage.set("keyword-index.json", '["keyword-index/');
    await createCatalog({ functions: [fn("ratchets")], indexStorage: storage });
    const saves = await storage.keys("keyword-index/");
    assert.equal(saves.length, 1);
    assert.deepEqual(await list(storage), saves);
  });

  test("a save the list lost is listed again when a later process loads it", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await createCatalog({ functions: [fn("sprockets")], indexStorage: storage });
    const saves = await storage.keys("keyword-index/");
    assert.equal(saves.length, 1);
    await storage.delete("keyword-index.json");
    forgetProcessSegments();
    const { storage: watched, take } = logged(storage);
    await createCatalog({ functions: [fn("sprockets")], indexStorage: watched });
    assert.deepEqual(take(), ["get save", "get list", "set list"], "loaded, not saved again");
    assert.deepEqual(await list(storage), saves, "listed again, so pruned in its turn");
  });

  test("a damaged list never deletes keys that only look like saves", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    const hex = "ab".repeat(32);
    const lookalikes = [`backup/keyword-index/${hex}`, `keyword-index/${hex}.bak`];
    for (const key of lookalikes) await storage.set(key, "user data");
    // The look-alikes first, then 64 names of saves: one more save pushes the oldest out.
    const names = Array.from({ length: 64 }, (_, i) => `keyword-index/${"0".repeat(62)}${i + 10}`);
    await storage.set("keyword-index.json", JSON.stringify([...lookalikes, ...names]));
    await createCatalog({ functions: [fn("cogs")], indexStorage: storage });
    for (const key of lookalikes) assert.equal(await storage.get(key), "user data", key);
    const now = await list(storage);
    assert.equal(now.length, 64);
    assert.deepEqual(now.slice(0, 63), names.slice(1));
  });
});
