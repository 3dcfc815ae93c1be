// The keyword index kept between processes (`indexStorage`, lib/catalog/_index_store.ts): a new
// process whose sources did not change loads each source's saved segment instead of indexing its
// entries, and ranks exactly as a freshly built index does; a changed server's segment is indexed
// and saved alone; a damaged save is indexed again; a damaged list of saves never deletes other
// data. The saves' housekeeping: the newest 64 kept, a warm build making no round trip, a failed
// save tried again, a storage that cannot read or write costing only the indexing.
// `forgetProcessSegments()` stands for a new process (the in-process segments are dropped). Scores are
// compared to 12 digits: summed over segments in another order, the last bit may differ.
// Over 300 lines: one behaviour, against a real folder and a real server, then its housekeeping.
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
} from "../../lib/mod.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import type { Storage } from "../../lib/storage/types.ts";
import { indexedDocuments } from "../../lib/catalog/_keyword_index.ts";
import { forgetProcessSegments } from "../../lib/catalog/_index_store.ts";
import type { Catalog } from "../../lib/catalog/types.ts";
import { startToolServer, type TestTool } from "./_servers.ts";
import { skillDoc } from "./_entries.ts";

const tool = (name: string, description: string): TestTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
});
const QUERIES = [
  "sort and index a BAM file",
  "align paired reads to a reference genome",
  "frobnicate the widgets",
  "call variants",
  "count reads per gene",
];
const rankings = (catalog: Catalog) =>
  QUERIES.map((q) =>
    catalog.rank(q, { limit: 8 }).map((r) => [r.entry.id, r.score.toPrecision(12), r.evidence])
  );

describe("the keyword index in a storage adapter", () => {
  let server: Awaited<ReturnType<typeof startToolServer>>;
  let dir: string;
  let storage: Storage;
  const resolver = createResolver({ sources: [createBuiltinSource()] });
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const options = () => ({
    resolver,
    registry,
    approvals: { storage: createMemoryStorage(), remote: "auto" as const },
    follow: false,
    discoveryMaxAgeMs: 0,
    indexStorage: storage,
  });
  const saves = async () => (await storage.keys("keyword-index/")).sort();

  before(async () => {
    server = await startToolServer([
      tool("frob", "Frobnicate the widgets of a quux"),
      tool("sort", "Sort BAM records by coordinate"),
    ]);
    await registry.add({ name: "s0", url: server.url });
    dir = await mkdtemp(join(tmpdir(), "skillmux-index-"));
    storage = createFsStorage({ root: dir });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("a new process loads the saved segments, indexes nothing and ranks the same", async () => {
    forgetProcessSegments();
    const first = await createCatalog(options());
    const expected = rankings(first);
    const saved = await saves();
    assert.equal(saved.length, 2, "one segment per source: the built-ins and server s0");
    assert.deepEqual(JSON.parse((await storage.get("keyword-index.json"))!).sort(), saved);

    forgetProcessSegments();
    const start = indexedDocuments();
    const second = await createCatalog(options());
    assert.equal(indexedDocuments() - start, 0, "every segment was loaded");
    assert.deepEqual(rankings(second), expected);
    assert.equal(second.rank("frobnicate widgets")[0].entry.id, "s0__frob");
  });

  test("a changed server gets a new segment; the others are loaded", async () => {
    server.tools.push(tool("quux", "Polish the quux until it shines"));
    forgetProcessSegments();
    const start = indexedDocuments();
    const catalog = await createCatalog(options());
    assert.equal(indexedDocuments() - start, 3, "server s0's three tools, not the built-ins");
    assert.equal(catalog.rank("polish the quux")[0].entry.id, "s0__quux");
    assert.equal((await saves()).length, 3, "the new segment is saved beside the old ones");
  });

  test("a damaged save is indexed again and replaced; rankings do not change", async () => {
    forgetProcessSegments();
    const expected = rankings(await createCatalog(options()));
    const keys = await saves();
    const texts = await Promise.all(keys.map((k) => storage.get(k)));
    assert.equal(keys.length, 3);
    // A valid index of other documents (the built-ins' under a server's key and back); not JSON;
    // JSON of the wrong shape.
    const builtins = texts.findIndex((t) => t!.includes("samtools"));
    const other = (builtins + 1) % 3;
    await storage.set(keys[builtins], texts[other]!);
    await storage.set(keys[other], texts[builtins]!);
    await storage.set(keys[(other + 1) % 3 === builtins ? (other + 2) % 3 : (other + 1) % 3], "{");
    forgetProcessSegments();
    const start = indexedDocuments();
    const catalog = await createCatalog(options());
    assert.ok(indexedDocuments() - start > 120, "the built-ins were indexed again");
    assert.deepEqual(rankings(catalog), expected);
    forgetProcessSegments();
    const again = indexedDocuments();
    await createCatalog(options());
    assert.equal(indexedDocuments() - again, 0, "the damaged saves were replaced by good ones");
  });

  test("segments this process built before are saved too", async () => {
    forgetProcessSegments();
    const { indexStorage: _, ...inMemory } = options();
    await createCatalog(inMemory);
    const elsewhere = createMemoryStorage();
    await createCatalog({ ...options(), indexStorage: elsewhere });
    assert.equal((await elsewhere.keys("keyword-index/")).length, 2);
  });

  test("a damaged list of saves never deletes other keys of the storage", async () => {
    await storage.set("approvals.json", "{}");
    const names = Array.from({ length: 70 }, (_, i) => `keyword-index/${"0".repeat(63)}${i % 10}`);
    await storage.set("keyword-index.json", JSON.stringify(["approvals.json", "../x", ...names]));
    server.tools.push(tool("zap", "Zap the widgets"));
    forgetProcessSegments();
    await createCatalog(options());
    assert.equal(await storage.get("approvals.json"), "{}");
    const list = JSON.parse((await storage.get("keyword-index.json"))!) as string[];
    assert.ok(list.every((k) => /^keyword-index\/[0-9a-f]{64}$/.test(k)), list.join(", "));
    assert.ok(list.length <= 64);
    assert.ok((await readdir(join(dir, "keyword-index"))).length >= 1);
  });
});

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
