// lib/mod.ts and everything it imports must run in a browser: no `node:` module
// imported (static or dynamic) and no `Deno` global. Type-only imports are erased
// and allowed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

const IMPORT = /(?:^|[;\s])(import|export)\s+(type\s+)?(?:[^;'"]*?\bfrom\s*)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

async function graph(entry: URL): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (seen.has(url.href)) continue;
    const code = stripComments(await readFile(url, "utf8"));
    seen.set(url.href, code);
    const specifiers = [
      ...[...code.matchAll(IMPORT)].filter((m) => !m[2]).map((m) => m[3]),
      ...[...code.matchAll(DYNAMIC)].map((m) => m[1]),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) queue.push(new URL(specifier, url));
      else seen.set(`bare:${specifier}`, "");
    }
  }
  return seen;
}

const modules = await graph(new URL("../lib/mod.ts", import.meta.url));

test("the graph of lib/mod.ts was walked", () => {
  const files = [...modules.keys()].filter((k) => k.startsWith("file:"));
  assert.ok(files.length >= 10, `only ${files.length} modules found`);
  assert.ok(
    files.some((f) => f.endsWith("/resolve/_fs_defaults.ts")),
    "zero-config fs sources reached",
  );
});

test("no module reachable from lib/mod.ts imports a node: module", () => {
  const bad = [...modules.keys()].filter((k) =>
    k.startsWith("bare:node:") || k.startsWith("bare:npm:node")
  );
  assert.deepEqual(bad, []);
});

test("no module reachable from lib/mod.ts uses the Deno global", () => {
  const bad = [...modules].filter(([, code]) => /\bDeno\s*\./.test(code)).map(([k]) => k);
  assert.deepEqual(bad, []);
});

test("bare imports of lib/mod.ts are browser-capable npm packages", () => {
  const bare = [...modules.keys()].filter((k) => k.startsWith("bare:")).map((k) => k.slice(5))
    .sort();
  assert.deepEqual(bare, [
    "@cfworker/json-schema",
    "eventsource-parser",
    "idb-keyval", // ky is not here: the HTTP model adapters that use it are ./llm
    "oauth4webapi",
    "smol-toml",
    "valibot",
    "wink-porter2-stemmer",
    "yaml",
  ]);
});
