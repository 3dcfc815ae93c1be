// The keyword index kept between processes (`indexStorage`, lib/catalog/build/_index_store.ts): a new
// process whose sources did not change loads each source's saved segment instead of indexing its
// entries, and ranks exactly as a freshly built index does; a changed server's segment is indexed
// and saved alone; a damaged save is indexed again; a damaged list of saves never deletes other
// data. `forgetProcessSegments()` stands for a new process (the in-process segments are dropped).
// Scores are compared to 12 digits: summed over segments in another order, the last bit may
// differ. Real folder storage and a real MCP server on 127.0.0.1. The saves' housekeeping:
// index_store_saves.test.ts.
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
} from "../../../lib/mod.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import type { Storage } from "../../../lib/storage/types.ts";
import { indexedDocuments } from "../../../lib/catalog/search/_keyword_index.ts";
import { forgetProcessSegments } from "../../../lib/catalog/build/_index_store.ts";
import type { Catalog } from "../../../lib/catalog/model/types.ts";
import { startToolServer, type TestTool } from "../_servers.ts";

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
    await storage.set(
      "keyword-index.json",
      JSON.stringify(["approvals.json", "../../x", ...names]),
    );
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
