// Keyword ranking accuracy on the labelled requests of test/fixtures/selection/requests.jsonl:
// top-1 and top-3 of catalog.rank() (BM25+ on minisearch) over the built-in skills, a live
// server-everything and three host functions. Peer in the same run: the hand-written keyword
// scorer the skills server used before (exact/prefix word matches on name, tags, description).
// A request counts as a hit when its expected id or one of its `also` ids (entries that are an
// equally correct answer) ranks there; the expected-id-only figure is printed too.
// Targets (issue 7): top-1 >= 85 %, top-3 >= 97 %.

import { readFile } from "node:fs/promises";
import {
  type CatalogEntry,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  type HostFunction,
} from "../lib/mod.ts";
import { startEverything } from "../test/mcp/_servers.ts";
import { isMain } from "./_main.ts";

interface Labelled {
  request: string;
  /** The id that should rank first. */
  expected: string;
  /** Other ids that are equally correct answers (e.g. a later built-in that does the same job). */
  also?: string[];
  kind: string;
}
interface Fixture {
  functions: Array<Omit<HostFunction, "handler">>;
  requests: Labelled[];
}

const DIR = new URL("../test/fixtures/selection/", import.meta.url);

/** The labelled requests with ids (JSON Lines; the first expected id is the one that should rank first). */
async function readFixture(): Promise<Fixture> {
  const { functions } = JSON.parse(await readFile(new URL("functions.json", DIR), "utf8"));
  const lines = (await readFile(new URL("requests.jsonl", DIR), "utf8")).trim().split("\n");
  const requests = lines.map((l) =>
    JSON.parse(l) as { request: string; expected: string[] | "none"; kind: string }
  )
    .flatMap(({ request, expected, kind }) =>
      expected === "none" ? [] : [{ request, expected: expected[0], also: expected.slice(1), kind }]
    );
  return { functions, requests };
}

/** The scorer the skills server used before this library had one ranker (kept as the peer). */
function previousScorer(entries: readonly CatalogEntry[], query: string): string[] {
  const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const match = (w: string, c: readonly string[], exact: number, prefix: number) =>
    c.includes(w) ? exact : c.some((x) => x.startsWith(w)) ? prefix : 0;
  const terms = [...new Set(words(query))];
  return entries.map((e) => {
    const name = words(e.name);
    const tags = e.tags.flatMap((t) => [t.toLowerCase(), ...words(t)]);
    const description = words(e.description);
    const score = terms.reduce(
      (s, t) =>
        s + match(t, [e.name, ...name], 10, 6) + match(t, tags, 5, 3) +
        match(t, description, 2, 1),
      0,
    );
    return { id: e.id, score };
  }).filter((h) => h.score > 0).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .map((h) => h.id);
}

/** Build the labelled catalog (also used by the tests to check the fixture). */
export async function labelledCatalog(url: string, functions: Fixture["functions"]) {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "everything", url });
  return await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    functions: functions.map((f) => ({ ...f, handler: () => null })),
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
}

export async function benchSelectionAccuracy(): Promise<void> {
  const fixture = await readFixture();
  const server = await startEverything("streamableHttp");
  try {
    const catalog = await labelledCatalog(server.url, fixture.functions);
    const tally = { ours: [0, 0], peer: [0, 0], strict: [0, 0] };
    const byKind = new Map<string, { n: number; top1: number }>();
    const misses: string[] = [];
    for (const { request, expected, also = [], kind } of fixture.requests) {
      const correct = new Set([expected, ...also]);
      const hit = (ids: string[]) => ids.some((id) => correct.has(id)) ? 1 : 0;
      const ours = catalog.rank(request, { limit: 3 }).map((r) => r.entry.id);
      const peer = previousScorer(catalog.entries, request).slice(0, 3);
      tally.ours[0] += hit(ours.slice(0, 1));
      tally.ours[1] += hit(ours);
      tally.peer[0] += hit(peer.slice(0, 1));
      tally.peer[1] += hit(peer);
      tally.strict[0] += ours[0] === expected ? 1 : 0;
      tally.strict[1] += ours.includes(expected) ? 1 : 0;
      const row = byKind.get(kind) ?? { n: 0, top1: 0 };
      row.n++;
      row.top1 += hit(ours.slice(0, 1));
      byKind.set(kind, row);
      if (!hit(ours.slice(0, 1))) {
        const want = [expected, ...also].join(" or ");
        misses.push(`  "${request}" → ${ours.join(", ") || "(none)"}; expected ${want}`);
      }
    }
    const n = fixture.requests.length;
    const pct = (k: number) => `${((100 * k) / n).toFixed(1)} %`;
    console.log(
      `\n## Keyword ranking accuracy, ${n} labelled requests, ${catalog.entries.length} entries`,
    );
    console.log(
      `catalog.rank (BM25+, minisearch)  top-1 ${pct(tally.ours[0])}  top-3 ${pct(tally.ours[1])}`,
    );
    console.log(
      `  (expected id only, also ignored) top-1 ${pct(tally.strict[0])}  top-3 ${
        pct(tally.strict[1])
      }`,
    );
    console.log(
      `previous hand-written scorer      top-1 ${pct(tally.peer[0])}  top-3 ${pct(tally.peer[1])}`,
    );
    console.log(
      `by kind (top-1): ${[...byKind].map(([k, r]) => `${k} ${r.top1}/${r.n}`).join(", ")}`,
    );
    if (misses.length > 0) console.log(`top-1 misses:\n${misses.join("\n")}`);
    catalog.dispose();
  } finally {
    await server.close();
  }
}

if (isMain(import.meta)) await benchSelectionAccuracy();
