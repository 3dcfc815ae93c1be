// Bundle "." for a browser with esbuild and fail if any output imports a `node:` module
// or touches the `Deno` global, or if what a page loads first (the entry and its static imports)
// exceeds 56 KiB min+gzip (raised from 45 after the protocol merge grew it to 54 KiB; to be brought back by lazy loading): heavy parts (ranking, tokenizer, LLM adapters) must load lazily.
//
//   node --import tsx scripts/check_bundle.ts

import { bundleForBrowser, chunkName, firstLoadChunks, gzipSizes } from "./_browser_bundle.ts";
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
const FIRST_LOAD_LIMIT = 56 * 1024;
const gz = gzipSizes(result);
const first = [...firstLoadChunks(result)].reduce((n, f) => n + (gz.get(f) ?? 0), 0);
console.log(`first load of ".": ${(first / 1024).toFixed(1)} KiB gzip (limit 56 KiB)`);
if (first > FIRST_LOAD_LIMIT) {
  failed = true;
  console.error(`FAIL the first load of "." is over 56 KiB gzip: load the new parts lazily`);
}
if (failed) process.exit(1);
console.log(
  `ok: ${result.outputFiles.length} browser chunks of "." and none imports a node: module`,
);
