// The catalog's keyword index in segments, one per source (issue 27): a source whose entries did
// not change keeps its segment (a warm createCatalog indexes nothing), a refresh after one server
// changed indexes that server's entries only, and a catalog ranks as one index of all its
// entries would (BM25 counts are corpus-wide) over every labelled request of the selection set.
// A saved segment is taken only when it holds exactly the documents and their keyword lines,
// never over a segment this process holds, and never saved once the process no longer holds it.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../../../lib/mod.ts";
import { parseLabelledRequests } from "../../../lib/catalog/mod.ts";
import {
  adoptSegment,
  buildKeywordIndex,
  hasSegment,
  indexedDocuments,
  type SavedSegment,
  savedSegment,
  sharedKeywordIndex,
} from "../../../lib/catalog/search/_keyword_index.ts";
import { loadSegments, saveSegments } from "../../../lib/catalog/build/_index_store.ts";
import type { CatalogEntry, KeywordDocument } from "../../../lib/catalog/model/types.ts";
import { startToolServer, type TestTool } from "../_servers.ts";

const tool = (name: string, description: string): TestTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
});
const toolsOf = (server: number, n: number) =>
  Array.from({ length: n }, (_, i) => tool(`t${i}`, `Tool ${i} of server ${server}: sort BAM`));

describe("the keyword index in segments", () => {
  const servers: Array<Awaited<ReturnType<typeof startToolServer>>> = [];
  const resolver = createResolver({ sources: [createBuiltinSource()] });
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const options = () => ({
    resolver,
    registry,
    approvals: { storage: createMemoryStorage(), remote: "auto" as const },
    follow: false,
    discoveryMaxAgeMs: 0,
  });

  before(async () => {
    for (const n of [2, 3, 4]) servers.push(await startToolServer(toolsOf(servers.length, n)));
    for (const [i, s] of servers.entries()) await registry.add({ name: `s${i}`, url: s.url });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test("a warm build indexes nothing; a refresh indexes only the server that changed", async () => {
    const catalog = await createCatalog(options());
    const start = indexedDocuments();
    const again = await createCatalog(options());
    assert.equal(indexedDocuments() - start, 0, "a second catalog of the same entries");
    await catalog.refresh(); // every server asked again (discoveryMaxAgeMs 0), nothing new
    assert.equal(indexedDocuments() - start, 0, "a refresh that found nothing new");
    servers[1].tools.push(tool("t9", "Frobnicate the quux widgets"));
    await catalog.refresh();
    assert.equal(indexedDocuments() - start, 4, "server s1's 4 tools, nothing else");
    assert.equal(catalog.rank("frobnicate quux")[0].entry.id, "s1__t9");
    assert.deepEqual(
      again.rank("frobnicate quux").map((r) => r.entry.id).includes("s1__t9"),
      false,
      "the other catalog keeps its own version",
    );
    catalog.dispose();
    again.dispose();
  });

  test("a catalog ranks every labelled request as one index of its entries would", async () => {
    const dir = new URL("../../fixtures/selection/", import.meta.url);
    const { functions } = JSON.parse(await readFile(new URL("functions.json", dir), "utf8"));
    const labelled = parseLabelledRequests(await readFile(new URL("requests.jsonl", dir), "utf8"));
    const catalog = await createCatalog({
      ...options(),
      functions: functions.map((f: object) => ({ ...f, handler: () => null })),
    });
    const sources = new Set(catalog.entries.map((e) => e.source));
    // The segment keys are internal: `skillmux catalog --json` printed them (1 MB of keys).
    assert.deepEqual(catalog.entries.filter((e) => "indexKey" in e).map((e) => e.id), []);
    assert.ok(sources.size >= 5, `several segments (${[...sources].join(", ")})`);
    // A skill's example tasks are a field of their own: the resolver's listing names them.
    const tasks = new Map((await resolver.list()).skills.map((s) => [s.name, s.tasks]));
    const document = (e: CatalogEntry): KeywordDocument => ({
      ...e,
      keywords: e.server ? [...e.keywords, e.server] : e.keywords,
      ...(e.kind === "skill" ? { tasks: tasks.get(e.name) } : {}),
    });
    const whole = buildKeywordIndex(catalog.entries.map(document));
    assert.ok(labelled.length > 100);
    for (const { request } of labelled) {
      const got = catalog.rank(request, { limit: Infinity });
      const want = whole.search(request, { limit: Infinity });
      assert.deepEqual(got.map((r) => r.entry.id), want.map((h) => h.id), request);
      got.forEach((r, i) => {
        const diff = Math.abs(r.score - want[i].score);
        assert.ok(diff <= 1e-9 * Math.max(1, want[i].score), `${request}: ${r.entry.id} ${diff}`);
      });
    }
    catalog.dispose();
  });
});

describe("saved segments", () => {
  const documents: KeywordDocument[] = [
    { id: "a", name: "alpha", description: "Sorts BAM files", keywords: ["sort a bam file"] },
    { id: "b", name: "beta", description: "Counts reads per gene" },
  ];
  /** The saved form of an index of `docs`, as it comes back from a storage. */
  const saveOf = (docs: KeywordDocument[], key: string): SavedSegment => {
    sharedKeywordIndex([{ key, stableKey: () => key, documents: () => docs }]);
    return JSON.parse(JSON.stringify(savedSegment(key)));
  };

  test("a save is taken only when it holds exactly these documents and their keyword lines", () => {
    const good = saveOf(documents, "kim: the same documents");
    assert.equal(adoptSegment("kim: adopted", documents, good), true);
    assert.equal(hasSegment("kim: adopted"), true);
    const before = indexedDocuments();
    const adopted = sharedKeywordIndex([{
      key: "kim: adopted",
      stableKey: () => "kim: adopted",
      documents: () => documents,
    }]);
    assert.equal(indexedDocuments(), before, "loaded, nothing indexed");
    assert.deepEqual(adopted.search("sort bam"), buildKeywordIndex(documents).search("sort bam"));

    const refused: Array<[string, SavedSegment]> = [
      // Every document, and one more (without keyword lines: the same count of lines).
      ["one more", saveOf([...documents, { id: "c", name: "c", description: "More" }], "kim: +1")],
      // The same documents, another count of keyword lines.
      [
        "other lines",
        saveOf([{ ...documents[0], keywords: ["sort", "index"] }, documents[1]], "kim: l"),
      ],
      // As many documents and lines, one of another id.
      ["another id", saveOf([documents[0], { ...documents[1], id: "x" }], "kim: x")],
      // Not an index at all.
      ["not an index", { search: 1, lines: 2 } as unknown as SavedSegment],
    ];
    for (const [what, saved] of refused) {
      const key = `kim: refused, ${what}`;
      assert.equal(adoptSegment(key, documents, saved), false, what);
      assert.equal(hasSegment(key), false, what);
    }
  });

  test("a segment this process holds is not replaced by its save", async () => {
    const segment = { key: "kim: held", stableKey: () => "kim: held", documents: () => documents };
    const first = sharedKeywordIndex([segment]).search("sorts bam");
    assert.equal(first[0].id, "a");
    const storage = createMemoryStorage();
    const [unsaved] = await loadSegments([segment], storage);
    // A save under that key with the same ids and counts, but other words (descriptions swapped).
    const other = saveOf([
      { ...documents[0], description: documents[1].description },
      { ...documents[1], description: documents[0].description },
    ], "kim: swapped");
    await storage.set(unsaved.key, JSON.stringify(other));
    assert.deepEqual(await loadSegments([segment], storage), [], "counts as saved");
    assert.deepEqual(sharedKeywordIndex([segment]).search("sorts bam"), first);
  });

  test("a segment the process no longer holds has no saved form and is not saved", async () => {
    const segment = {
      key: "kim: never built",
      stableKey: () => "kim: never built",
      documents: () => documents,
    };
    assert.equal(savedSegment(segment.key), undefined);
    const storage = createMemoryStorage();
    await saveSegments([{ segment, key: `keyword-index/${"0".repeat(64)}` }], storage);
    assert.deepEqual(await storage.keys(""), []);
  });
});
