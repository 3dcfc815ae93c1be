// The layers and rooms of docs/architecture.md ("Layers and rooms", a JSON block this test reads:
// the map has one home), held by a test: a module may import its own layer and the layers below,
// never one above; only cli/ imports the top layers (server/, frameworks/, cli/); inside a folder
// with rooms (mcp/, catalog/), a room imports its own room and the rooms below; a private file
// (`_name.ts`) is imported only from its own layer, unless it is shared ground (lib/_name.ts).
// Static and dynamic imports count, type-only ones too (they still tie the layers together). The
// import graph of lib/ must have no cycle.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { blockAfter } from "../scripts/_markdown.ts";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

/**
 * The layer and room map of docs/architecture.md ("Layers and rooms"), its one home: the rank of
 * each top-level folder of lib/ (files directly in lib/, `_abort.ts`, …, are shared ground, "");
 * the layers only cli/ may import; and the rank of each room of a folder that has rooms.
 */
interface HouseMap {
  layers: Record<string, number>;
  top: string[];
  rooms: Record<string, Record<string, number>>;
}
const MAP = JSON.parse(
  blockAfter(
    await readFile(new URL("../docs/architecture.md", import.meta.url), "utf8"),
    "## Layers and rooms",
    "json",
  ),
) as HouseMap;
const LAYERS = MAP.layers;

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
  assert.deepEqual(unknown, [], "rank new lib/ folders in docs/architecture.md (Layers and rooms)");
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
      const sideways = MAP.top.includes(to) && from !== "cli";
      if (upward || sideways) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

/** The room of `file` in a folder that has rooms: "" for a loose file, undefined elsewhere. */
function roomOf(file: string): { folder: string; room: string } | undefined {
  const parts = file.split(path.sep);
  if (!(parts[0] in MAP.rooms)) return undefined;
  return { folder: parts[0], room: parts.length === 2 ? "" : parts[1] };
}

test("every file of a folder with rooms but its entry mod.ts lives in a ranked room", () => {
  assert.ok(Object.keys(MAP.rooms).includes("mcp"), "the map was read");
  const loose = [...graph.keys()].filter((f) => {
    const at = roomOf(f);
    return at !== undefined && f !== path.join(at.folder, "mod.ts") &&
      !(at.room in MAP.rooms[at.folder]);
  });
  assert.deepEqual(
    loose,
    [],
    "put the file in a room and rank new rooms in docs/architecture.md (Layers and rooms)",
  );
});

test("no module of a folder with rooms imports a room above its own", () => {
  const bad: string[] = [];
  for (const [file, imports] of graph) {
    const from = roomOf(file);
    if (from === undefined || from.room === "") continue;
    const ranks = MAP.rooms[from.folder];
    for (const target of imports) {
      const to = roomOf(target);
      if (to === undefined || to.folder !== from.folder || to.room === from.room) continue;
      if (to.room === "" || ranks[to.room] > ranks[from.room]) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

test("a private file (_name.ts, _name.json) is imported only from its own layer, or is shared ground", () => {
  // The rule of docs/architecture.md (File names): `_name` is private to its layer, rooms
  // included (mcp/'s and catalog/'s rooms share their layer's privates); what other layers need
  // is shared ground (lib/_name.ts) or a non-underscore module of its layer.
  const bad: string[] = [];
  for (const [file, imports] of graph) {
    for (const target of imports) {
      if (!path.basename(target).startsWith("_")) continue;
      const to = layerOf(target);
      if (to !== "" && to !== layerOf(file)) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, [], "move what is shared to lib/*.ts or make it a module of its layer");
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
