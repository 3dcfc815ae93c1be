// The catalog's keyword index in segments, one per source (issue 27): a source whose entries did
// not change keeps its segment (a warm createCatalog indexes nothing), a refresh after one server
// changed indexes that server's entries only, and a catalog ranks as one index of all its
// entries would (BM25 counts are corpus-wide) over every labelled request of the selection set.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../../lib/mod.ts";
import { parseLabelledRequests } from "../../lib/catalog/mod.ts";
import { buildKeywordIndex, indexedDocuments } from "../../lib/catalog/search/_keyword_index.ts";
import type { CatalogEntry, KeywordDocument } from "../../lib/catalog/model/types.ts";
import { startToolServer, type TestTool } from "./_servers.ts";

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
    const dir = new URL("../fixtures/selection/", import.meta.url);
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
