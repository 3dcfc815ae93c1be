// A catalog of 10,000 entries (host functions with synthetic one-line descriptions): build,
// render and keyword query medians, next to peers measured in the same run:
//  - query: the hand-written scorer the skills server used before (a linear scan);
//  - render: JSON.stringify of the entries (the cheapest raw listing, no token count).
// Targets (issue 7): query < 2 ms, render < 20 ms.

import { createCatalog, type HostFunction } from "../lib/mod.ts";
import { fmt, quantile, runtime, sample } from "./_stats.ts";
import { syntheticFunction } from "./_synthetic.ts";
import { isMain } from "./_main.ts";

const COUNT = 10_000;
const QUERIES = [
  "list the open issues of my project",
  "export spreadsheet rows as csv",
  "archive old support tickets",
  "sync calendar events",
  "delete a bucket object",
  "search log queries for errors since yesterday",
  "create an alert rule for the deployment",
  "import the sample sheet of sequencing run 42",
];

/** The previous scorer of the skills server: exact and prefix word matches, linear. */
function previousScorer(entries: ReadonlyArray<{ name: string; description: string }>, q: string) {
  const words = (t: string) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const terms = [...new Set(words(q))];
  return entries.map((e) => {
    const name = words(e.name);
    const description = words(e.description);
    let score = 0;
    for (const t of terms) {
      score += (name.includes(t) ? 10 : name.some((w) => w.startsWith(t)) ? 6 : 0) +
        (description.includes(t) ? 2 : description.some((w) => w.startsWith(t)) ? 1 : 0);
    }
    return { name: e.name, score };
  }).filter((h) => h.score > 0).sort((a, b) => b.score - a.score).slice(0, 10);
}

export async function benchCatalogScale(): Promise<void> {
  const functions: HostFunction[] = Array.from({ length: COUNT }, (_, i) => ({
    ...syntheticFunction(i),
    handler: () => null,
  }));
  const builds: number[] = [];
  let catalog = await createCatalog({ functions });
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    catalog = await createCatalog({ functions });
    builds.push(performance.now() - t);
  }
  builds.sort((a, b) => a - b);
  const t0 = performance.now();
  const first = await catalog.render();
  const coldRender = performance.now() - t0;
  const render = await sample(50, () => catalog.render(), 3);
  const budgeted = await sample(
    50,
    (i) => catalog.render({ budget: 4_000, request: QUERIES[i % 8] }),
    3,
  );
  const raw = await sample(50, () => Promise.resolve(JSON.stringify(catalog.entries)), 3);
  const query = await sample(400, (i) => Promise.resolve(catalog.rank(QUERIES[i % 8])));
  const peer = await sample(
    40,
    (i) => Promise.resolve(previousScorer(catalog.entries, QUERIES[i % 8])),
    4,
  );
  const m = (t: number[]) => quantile(t, 0.5);
  console.log(`\n## Catalog of ${COUNT} entries (${runtime()})`);
  console.log(`build (createCatalog, index included)  median ${fmt(m(builds))}`);
  console.log(`render, first (counts ${first.tokens} o200k tokens)  ${fmt(coldRender)}`);
  console.log(
    `render, whole listing             median ${fmt(m(render))}  p95 ${
      fmt(quantile(render, 0.95))
    }`,
  );
  console.log(
    `render, budget 4000 + request     median ${fmt(m(budgeted))}  p95 ${
      fmt(quantile(budgeted, 0.95))
    }`,
  );
  console.log(`peer: JSON.stringify(entries)     median ${fmt(m(raw))}`);
  console.log(
    `query (rank, BM25+)               median ${fmt(m(query))}  p95 ${fmt(quantile(query, 0.95))}`,
  );
  console.log(
    `peer: previous linear scorer      median ${fmt(m(peer))}  (${
      (m(peer) / m(query)).toFixed(1)
    }x ours)`,
  );
  catalog.dispose();
}

if (isMain(import.meta)) await benchCatalogScale();
