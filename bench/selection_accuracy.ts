// Selection accuracy on the labelled requests of test/fixtures/selection/requests.jsonl, measured
// with evaluateSelection (what `skillmux eval` runs): the keyword selection a user gets over the
// built-in skills, a live server-everything and three host functions. Requests labelled "none"
// are ones nothing in the catalog fits (arithmetic, weather, general coding, small talk).
// Printed: top-1, top-3, MRR, "none" precision and recall, skills attached where the label wants
// none, prompt tokens per request, top-1 by kind, and every miss.
// Targets (issue 21): top-1 >= 90 %, top-3 >= 98 %, "none" precision >= 90 %.

import { readFile } from "node:fs/promises";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  type HostFunction,
} from "../lib/mod.ts";
import { evaluateSelection, parseLabelledRequests } from "../lib/catalog/mod.ts";
import { startEverything } from "../test/mcp/_servers.ts";
import { isMain } from "./_main.ts";

const DIR = new URL("../test/fixtures/selection/", import.meta.url);

/** Build the labelled catalog. */
export async function labelledCatalog(
  url: string,
  functions: Array<Omit<HostFunction, "handler">>,
): Promise<Awaited<ReturnType<typeof createCatalog>>> {
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
  const { functions } = JSON.parse(await readFile(new URL("functions.json", DIR), "utf8"));
  const text = await readFile(new URL("requests.jsonl", DIR), "utf8");
  const labelled = parseLabelledRequests(text);
  const kinds = text.trim().split("\n").map((line) => JSON.parse(line).kind as string);
  const server = await startEverything("streamableHttp");
  try {
    const catalog = await labelledCatalog(server.url, functions);
    const report = await evaluateSelection(catalog, labelled);
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    console.log(
      `\n## Selection accuracy (keywords), ${report.requests} labelled requests ` +
        `(${report.labelled.none} "none"), ${catalog.entries.length} entries`,
    );
    console.log(
      `top-1 ${pct(report.top1)}  top-3 ${pct(report.top3)}  MRR ${report.mrr.toFixed(3)}  ` +
        `"none" precision ${pct(report.nonePrecision)}  recall ${pct(report.noneRecall)}`,
    );
    console.log(
      `skills attached where none was wanted: ${report.unwantedSkills}; ` +
        `prompt tokens per request (o200k): ${report.promptTokens}`,
    );
    const byKind = new Map<string, [number, number]>();
    report.results.forEach((r, i) => {
      const row = byKind.get(kinds[i]) ?? [0, 0];
      byKind.set(kinds[i], [row[0] + (r.hit ? 1 : 0), row[1] + 1]);
    });
    console.log(`by kind: ${[...byKind].map(([k, [h, n]]) => `${k} ${h}/${n}`).join(", ")}`);
    if (report.misses.length > 0) {
      console.log(`misses:`);
      for (const m of report.misses) {
        const want = m.expected === "none" ? "none" : m.expected.join(" or ");
        console.log(`  "${m.request}" → ${m.selected.join(", ") || "(nothing)"}; expected ${want}`);
      }
    }
    catalog.dispose();
  } finally {
    await server.close();
  }
}

if (isMain(import.meta)) await benchSelectionAccuracy();
