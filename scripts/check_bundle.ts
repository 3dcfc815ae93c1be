// Bundle "." for a browser with esbuild and fail if any output imports a `node:` module
// or touches the `Deno` global, or if what a page loads first (the entry and its static imports)
// exceeds 45 KiB min+gzip: whatever is not needed until used (ranking, tokenizer, LLM adapters,
// the MCP client behind connect(), the HTTP transports, the registry's and resolver's machinery,
// the skill reader, the skills extension's reads) loads lazily, at its first use. It was 35 KiB when
// the limit went back to 45.
// `--why` lists the first load's modules by what a lazy import of each would take off.
//
//   node --import tsx scripts/check_bundle.ts [--why]

import {
  bundleForBrowser,
  chunkName,
  firstLoadChunks,
  firstLoadModules,
  gzipSizes,
} from "./_browser_bundle.ts";
import { gzipSync } from "node:zlib";

const NODE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s*)["']node:[^"']+["']/;

const result = await bundleForBrowser('export * from "./lib/mod.ts";');

let failed = false;
const rows: string[] = [];
for (const file of result.outputFiles) {
  const name = chunkName(file);
  const match = file.text.match(NODE_IMPORT);
  if (match) {
    failed = true;
    console.error(`FAIL ${name} imports ${match[0]}`);
  }
  if (/\bDeno\./.test(file.text)) {
    failed = true;
    console.error(`FAIL ${name} uses the Deno global`);
  }
  const gz = gzipSync(file.contents, { level: 9 }).length;
  rows.push(
    `${name.padEnd(28)} ${(file.contents.length / 1024).toFixed(1).padStart(7)} KiB min ${
      (gz / 1024).toFixed(1).padStart(6)
    } KiB gzip`,
  );
}
console.log(rows.join("\n"));
if (process.argv.includes("--why")) {
  console.log("\nfirst-load modules (KiB minified: own, with what only it brings in; importers)");
  for (const m of firstLoadModules(result).slice(0, 40)) {
    console.log(
      `${(m.bytes / 1024).toFixed(1).padStart(5)} ${
        (m.dominated / 1024).toFixed(1).padStart(6)
      }  ${m.path}  <- ${m.importers.join(", ")}`,
    );
  }
  console.log();
}
const FIRST_LOAD_LIMIT = 45 * 1024;
const gz = gzipSizes(result);
const first = [...firstLoadChunks(result)].reduce((n, f) => n + (gz.get(f) ?? 0), 0);
console.log(`first load of ".": ${(first / 1024).toFixed(1)} KiB gzip (limit 45 KiB)`);
if (first > FIRST_LOAD_LIMIT) {
  failed = true;
  console.error(`FAIL the first load of "." is over 45 KiB gzip: load the new parts lazily`);
}
if (failed) process.exit(1);
console.log(
  `ok: ${result.outputFiles.length} browser chunks of "." and none imports a node: module`,
);
