// The layers of ../shared/DESIGN.md, held by a test: storage → skill → mcp → resolve → catalog →
// prompt, with server/ and cli/ on top; install/ (community install) sits on resolve. A module may import its own layer and the layers below,
// never one above; nothing in lib/ but cli/ imports cli/, and only cli/ imports server/.
// Static and dynamic imports count, type-only ones too (they still tie the layers together).
// The import graph of lib/ must have no cycle.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

/** Rank of each top-level folder of lib/; files directly in lib/ (`_abort.ts`, …) are shared ground. */
const LAYERS: Record<string, number> = {
  "": 0,
  tokenizer: 0.5, // o200k counts: knows nothing else; catalog/tokens.ts loads it at run time
  storage: 1,
  skill: 2,
  mcp: 3,
  resolve: 4,
  install: 5.5,
  catalog: 5,
  prompt: 6,
  server: 7,
  frameworks: 7,
  cli: 8,
};

const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[^;'"]*?\bfrom\s*)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

async function libFiles(dir = LIB): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await libFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(full);
  }
  return out.sort();
}

/** The lib/-relative files each lib/ file imports. */
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await libFiles()) {
    const code = stripComments(await readFile(file, "utf8"));
    const specifiers = [...code.matchAll(IMPORT), ...code.matchAll(DYNAMIC)].map((m) => m[1]);
    graph.set(
      path.relative(LIB, file),
      specifiers.filter((s) => s.startsWith(".")).map((s) =>
        path.relative(LIB, path.resolve(path.dirname(file), s))
      ),
    );
  }
  return graph;
}

function layerOf(file: string): string {
  const parts = file.split(path.sep);
  return parts.length === 1 ? "" : parts[0];
}

const graph = await importGraph();

test("every folder of lib/ has a layer", () => {
  const unknown = [...new Set([...graph.keys()].map(layerOf))].filter((l) => !(l in LAYERS));
  assert.deepEqual(unknown, [], "add new lib/ folders to LAYERS in test/layering.test.ts");
});

test("no module imports a layer above its own, and only cli/ imports server/", () => {
  const bad: string[] = [];
  for (const [file, imports] of graph) {
    // The public entries (lib/mod_deno.ts is Deno's ".") re-export every layer.
    if (file === "mod.ts" || file === "mod_deno.ts") continue;
    const from = layerOf(file);
    for (const target of imports) {
      const to = layerOf(target);
      if (target === "mod.ts" || from === to) continue;
      const upward = LAYERS[to] > LAYERS[from];
      const sideways = (to === "server" || to === "cli" || to === "frameworks") && from !== "cli";
      if (upward || sideways) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

/**
 * Rank of each room of lib/mcp/, bottom up, so the folder reads top-down: protocol/ (errors,
 * wire types, pure encoders) knows nothing else; sealing/ (secret boxes, shared by auth/ and
 * registry/) sits below both; policy/ checks targets; transport/ carries messages; auth/ signs
 * requests over a transport; client/ is the client core built on all of these; skills/ and
 * registry/ build on the client; directory/ (MCP registries: search, plans that become registry
 * entries) sits on top. lib/mcp/mod.ts, the public entry, is the one loose file.
 */
const MCP_ROOMS: Record<string, number> = {
  protocol: 0,
  sealing: 1,
  policy: 2,
  transport: 3,
  auth: 4,
  client: 5,
  skills: 6,
  registry: 7,
  directory: 8,
};

function mcpRoomOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  if (parts[0] !== "mcp") return undefined;
  return parts.length === 2 ? "" : parts[1];
}

test("every file of lib/mcp/ but its entry mod.ts lives in a ranked room", () => {
  const loose = [...graph.keys()].filter((f) => {
    const room = mcpRoomOf(f);
    return room !== undefined && f !== path.join("mcp", "mod.ts") && !(room in MCP_ROOMS);
  });
  assert.deepEqual(loose, [], "put lib/mcp/ files in a room and rank new rooms in MCP_ROOMS");
});

test("no module of lib/mcp/ imports a room above its own", () => {
  const bad: string[] = [];
  for (const [file, imports] of graph) {
    const from = mcpRoomOf(file);
    if (from === undefined || from === "") continue;
    for (const target of imports) {
      const to = mcpRoomOf(target);
      if (to === undefined || to === from) continue;
      if (to === "" || MCP_ROOMS[to] > MCP_ROOMS[from]) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

test("only frameworks/ imports the AI SDK or LangChain, and nothing reaches frameworks/ from the main entry", async () => {
  const importers: string[] = [];
  for (const file of await libFiles()) {
    const code = stripComments(await readFile(file, "utf8"));
    const specifiers = [...code.matchAll(IMPORT), ...code.matchAll(DYNAMIC)].map((m) => m[1]);
    if (specifiers.some((s) => s === "ai" || s.startsWith("ai/") || s.startsWith("@langchain/"))) {
      importers.push(path.relative(LIB, file));
    }
  }
  assert.deepEqual(
    importers.filter((f) => layerOf(f) !== "frameworks"),
    [],
    "framework imports outside frameworks/",
  );
  assert.ok(importers.length > 0);
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  visit("mod.ts");
  assert.deepEqual([...reached].filter((f) => layerOf(f) === "frameworks"), []);
});

test("no lib/ module imports the public entry lib/mod.ts", () => {
  const importsEntry = [...graph].filter(([file, imports]) =>
    file !== "mod.ts" && file !== "mod_deno.ts" && imports.includes("mod.ts")
  ).map(([file]) => file);
  assert.deepEqual(importsEntry, [], "lib/ modules import their dependencies directly");
});

test("the import graph of lib/ has no cycle", () => {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});
