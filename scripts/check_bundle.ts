// Bundle "." for a browser with esbuild and fail if any output imports a `node:` module
// or touches the `Deno` global, or if what a page loads first (the entry and its static imports)
// exceeds 45 KiB min+gzip: whatever is not needed until used (ranking, tokenizer, LLM adapters,
// the MCP client behind connect(), the HTTP transports, the registry's and resolver's machinery,
// the skill reader, the skills extension's reads) loads lazily, at its first use. It was 35 KiB when
// the limit went back to 45, 45.4 when the MCP config formats (and smol-toml under them) sat on
// "."; 26.1 since they and the HTTP model adapters are subpaths (./mcp, ./llm; issue 46), 14.3
// since "." holds one screen of names and each layer's plumbing its own subpath.
// `--why` lists the first load's modules by what a lazy import of each would take off.
// Then "." in ONE file (no code splitting, for a browser and for Node) must stay under
// ONE_FILE_LIMIT gzip without the o200k ranks or the skill texts, and still work: imported from
// a folder without the package's files, `countTokens` gives the documented estimate and the
// built-in skills come from `./builtin-skills` passed to `createBuiltinSource`.
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
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleOneFile } from "./_one_file.ts";

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

// One file, no splitting. 1,337 KiB gzip when the o200k tables (gpt-tokenizer) and the skill texts
// were inlined; 205 KiB (browser) and 209 KiB (Node) with re2js (46 KiB) for schema `pattern`s and
// all of oauth4webapi (14 KiB); now patterns run on our own linear-time matcher
// (lib/prompt/_pattern.ts, 2 KiB), only the used parts of oauth4webapi load (8 KiB), and a browser
// bundle swaps the filesystem defaults for a stub (package.json "browser": 6 KiB): about 149 and
// 159 KiB. The keyword index in segments (_corpus_search.ts) and the built-in summaries loader
// then added 1.5 KiB: 150.01 KiB for a browser, 10 bytes over issue 27's 150 KiB, and 160.05 for
// Node, whose floor is above it (docs/bundle.md). Importing only the parts of `yaml` the front
// matter uses (lib/skill/_yaml_parser.ts) took the browser figure to 148.4 KiB: the browser limit is
// issue 27's 150 KiB; Node's holds what is reached, with 1 KiB spare (its yaml build is CommonJS).
// The keyword index kept in a storage adapter (_index_store.ts) added 0.9 KiB: 149.3 and 161.0.
// Skills as people publish them (issue 42: the lenient verdict, lint by format, a skill folder's
// files through the resolver, the MCP source and prompts) added 4.5 and 5.6 KiB: 154.4 and 167.3,
// over issue 27's 150 KiB target by that much (the first load stays under 45 KiB). Later work took
// them to 158.5 and 172.4; the HTTP model adapters (and ky) moving to ./llm and the MCP config
// formats to ./mcp (issue 46: a small front door) brought them to 150.2 and 164.1 (151.0 and
// 165.0 later); "." cut to one screen of names (the rest on ./resolve, ./catalog, ./skill, …) to
// 143.1 and 157.0.
const ONE_FILE_LIMIT = { browser: 155 * 1024, node: 168 * 1024 };
const RANKS_MARK = '!!!"!#!$!%!&'; // the start of lib/tokenizer/_o200k_ranks.ts
const SKILL_MARK = "name: samtools\n"; // front matter of a built-in skill text
const FS_MARK = "Cannot create fs storage"; // lib/storage/fs.ts, which browsers cannot run
for (const platform of ["browser", "node"] as const) {
  const one = await bundleOneFile('export * from "./lib/mod.ts";', platform);
  const limit = ONE_FILE_LIMIT[platform];
  console.log(
    `"." in one file (${platform}): ${(one.gzip / 1024).toFixed(1)} KiB gzip (limit ${
      limit / 1024
    } KiB)`,
  );
  if (one.gzip > limit) {
    failed = true;
    console.error(`FAIL "." in one file (${platform}) is over ${limit / 1024} KiB gzip`);
  }
  if (platform === "browser" && one.text.includes(FS_MARK)) {
    failed = true;
    console.error(`FAIL "." in one file (browser) carries the filesystem storage`);
  }
  for (const [mark, what] of [[RANKS_MARK, "the o200k ranks"], [SKILL_MARK, "skill texts"]]) {
    if (one.text.includes(mark)) {
      failed = true;
      console.error(`FAIL "." in one file (${platform}) inlines ${what}: load them by URL`);
    }
  }
}
{
  // The browser one-file bundle, alone in a folder (imported by Node here, which a browser bundle
  // of "." allows): what a user of a bundler without assets gets. With "." come the two names of
  // its subpaths that show the optional data's fallbacks (token counts, the built-in names).
  const dir = await mkdtemp(join(tmpdir(), "skillmux-one-file-"));
  try {
    const mod = await bundleOneFile(
      [
        'export * from "./lib/mod.ts";',
        'export { countTokens, estimateTokens } from "./lib/catalog/mod.ts";',
        'export { builtinSkillNames } from "./lib/resolve/mod.ts";',
      ].join("\n"),
      "browser",
    );
    const skills = await bundleOneFile(
      'export * from "./lib/resolve/builtin_skills.ts";',
      "browser",
    );
    await writeFile(join(dir, "mod.mjs"), mod.code);
    await writeFile(join(dir, "skills.mjs"), skills.code);
    const m = await import(pathToFileURL(join(dir, "mod.mjs")).href);
    const { BUILTIN_SKILLS } = await import(pathToFileURL(join(dir, "skills.mjs")).href);
    const text = "Sort and index a BAM file";
    const counted = await m.countTokens(text);
    if (counted !== m.estimateTokens(text)) {
      failed = true;
      console.error(`FAIL one file: countTokens gave ${counted}, not the documented estimate`);
    }
    const missing = await m.builtinSkillNames().then(() => "", (e: Error) => e.message);
    if (!missing.includes("@skillmux/core/builtin-skills")) {
      failed = true;
      console.error(`FAIL one file: without the skills JSON, the error does not say what to pass`);
    }
    // Run by Node, this browser bundle has no filesystem defaults, and says so.
    const defaults = await m.createDefaultSources().then(() => "", (e: Error) => e.message);
    if (!defaults.includes("built for browsers")) {
      failed = true;
      console.error(`FAIL one file: the browser bundle's defaults under Node: "${defaults}"`);
    }
    const source = m.createBuiltinSource({ skills: BUILTIN_SKILLS });
    const hit = await m.createResolver({ sources: [source] }).resolve("samtools");
    if (hit.source !== "builtin") {
      failed = true;
      console.error(`FAIL one file: createBuiltinSource({ skills }) did not find samtools`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
if (failed) process.exit(1);
console.log(
  `ok: ${result.outputFiles.length} browser chunks of "." and none imports a node: module`,
);
