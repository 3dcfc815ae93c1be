// Child process of bench/index_store.ts: one new process's first catalog of the built-in skills,
// with the keyword index kept in a folder (argv[2]) or not ("none"). Prints the build's ms.
import process from "node:process";
import { createBuiltinSource, createCatalog, createResolver } from "../lib/mod.ts";
import { createFsStorage } from "../lib/storage/fs.ts";

const folder = process.argv[2];
const resolver = createResolver({ sources: [createBuiltinSource()] });
await resolver.list(); // the built-ins' summaries loaded: only the catalog is timed
const start = performance.now();
const catalog = await createCatalog({
  resolver,
  indexStorage: folder === "none" ? undefined : createFsStorage({ root: folder }),
});
const ms = performance.now() - start;
if (catalog.rank("sort and index a BAM file")[0]?.entry.id !== "samtools") process.exit(1);
console.log(JSON.stringify({ ms }));
