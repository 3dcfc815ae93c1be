// Benchmarks: figures and ratios against peers measured in the same run. Not tests.
//
//   npm run bench                         (Node)
//   npx deno run -A bench/run.ts          (Deno: the Node-only parts are skipped)

import process from "node:process";
import { benchParse } from "./parse.ts";
import { benchResolveLocal } from "./resolve_local.ts";
import { benchMcpTools } from "./mcp_tools.ts";
import { benchServe } from "./serve.ts";
import { benchSelectionAccuracy } from "./selection_accuracy.ts";
import { benchRetrieval } from "./retrieval.ts";
import { benchCatalogTokens } from "./catalog_tokens.ts";
import { benchCatalogScale } from "./catalog_scale.ts";
import { benchCatalogServers } from "./catalog_servers.ts";
import { benchAgentSkills } from "./agent_skills.ts";

await benchParse();
await benchResolveLocal();
await benchMcpTools();
await benchServe();
await benchSelectionAccuracy();
await benchRetrieval();
await benchCatalogTokens();
await benchCatalogScale();
await benchCatalogServers();
await benchAgentSkills();
if (!("Deno" in globalThis)) {
  await (await import("./bundle.ts")).benchBundle();
  await (await import("./big_list.ts")).benchBigList();
  await (await import("./index_store.ts")).benchIndexStore();
  (await import("./cold_import.ts")).benchColdImport();
  await (await import("./cold_connect.ts")).benchColdConnect();
  await (await import("./stdio_close.ts")).benchStdioClose();
  await (await import("./multiuser.ts")).benchMultiUser(); // needs redis-server
}
process.exit(0);
