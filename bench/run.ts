// Benchmarks: figures and ratios against peers measured in the same run. Not tests.
//
//   npm run bench                         (Node)
//   npx deno run -A bench/run.ts          (Deno)

import { benchParse } from "./parse.ts";
import { benchResolveLocal } from "./resolve_local.ts";

await benchParse();
await benchResolveLocal();
