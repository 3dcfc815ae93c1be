// For reading, not a bench: the top hits of requests with their scores and evidence.
//   node --import tsx bench/_explain.ts builtin "request" ["request" …]
import process from "node:process";
import { createBuiltinSource, createCatalog, createResolver } from "../lib/mod.ts";
import { findTools } from "../lib/catalog/mod.ts";
import { kDenseSource } from "./_retrieval_sets.ts";

const [which, ...requests] = process.argv.slice(2);
const sources = which === "kdense"
  ? [await kDenseSource(), createBuiltinSource()]
  : [createBuiltinSource()];
const catalog = await createCatalog({ resolver: createResolver({ sources }) });
for (const request of requests) {
  console.log(`\n"${request}"`);
  const why = new Map(
    findTools(catalog, request, { limit: 50, kinds: ["skill"] }).map((f) => [f.id, f.why]),
  );
  for (const r of catalog.rank(request, { limit: 6, kinds: ["skill"] })) {
    console.log(
      `  ${r.entry.id.padEnd(20)} ${r.score.toFixed(2).padStart(6)} ev ${
        String(r.evidence).padEnd(5)
      } ${why.get(r.entry.id) ?? ""}`,
    );
  }
}
catalog.dispose();
process.exit(0);
