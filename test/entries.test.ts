// The names each entry point of the package exports (deno.json "exports"), held by a snapshot:
// test/entries.json. A name added to or taken from an entry fails here until the snapshot is
// updated (`UPDATE_ENTRIES=1 npx deno test -A test/entries.test.ts`, then review the diff), so
// the size of the front door is a decision (docs/architecture.md). The names are read from the
// entry's source (named re-exports and declarations; `export *` is refused in a `mod.ts`), and
// the values among them are checked against what the module exports at run time, under Deno
// and under Node.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SNAPSHOT = join(ROOT, "test", "entries.json");

/** One exported name: `type` for a type-only export (no run-time value). */
interface Exported {
  name: string;
  type: boolean;
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const DECLARATION =
  /^export\s+(declare\s+)?(?:(async\s+)?function\*?|const|let|var|(?:abstract\s+)?class|enum|interface|type)\s+([A-Za-z_$][\w$]*)/gm;
const RE_EXPORT = /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*["']([^"']+)["'])?/gm;
const STAR = /^export\s+(type\s+)?\*\s+from\s*["']([^"']+)["']/gm;

/** The names `file` exports, read from its source (following `export *` where allowed). */
async function exportedNames(file: string): Promise<Exported[]> {
  const code = stripComments(await readFile(file, "utf8"));
  const out: Exported[] = [];
  for (const m of code.matchAll(DECLARATION)) {
    const keyword = m[0].replace(/^export\s+(declare\s+)?/, "").split(/\s+/)[0];
    out.push({ name: m[3], type: keyword === "interface" || keyword === "type" });
  }
  for (const m of code.matchAll(RE_EXPORT)) {
    for (const raw of m[2].split(",").map((s) => s.trim()).filter(Boolean)) {
      const type = m[1] !== undefined || raw.startsWith("type ");
      const name = raw.replace(/^type\s+/, "").split(/\s+as\s+/).at(-1)!.trim();
      out.push({ name, type });
    }
  }
  for (const m of code.matchAll(STAR)) {
    const target = join(dirname(file), m[2]);
    for (const e of await exportedNames(target)) out.push({ ...e, type: e.type || !!m[1] });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const manifest = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as {
  exports: Record<string, string>;
};
const entries = Object.entries(manifest.exports);
const current: Record<string, string[]> = {};
for (const [key, path] of entries) {
  current[key] = (await exportedNames(join(ROOT, path))).map((e) =>
    (e.type ? "type " : "") + e.name
  );
}

test("no mod.ts re-exports with `export *`: every name is listed", async () => {
  const { readdir } = await import("node:fs/promises");
  const stars: string[] = [];
  for (const file of await readdir(join(ROOT, "lib"), { recursive: true })) {
    if (!String(file).endsWith("mod.ts")) continue;
    const code = stripComments(await readFile(join(ROOT, "lib", String(file)), "utf8"));
    if ([...code.matchAll(STAR)].length > 0) stars.push(String(file));
  }
  assert.deepEqual(stars, []);
});

test("each entry exports the names of test/entries.json", async () => {
  if (process.env.UPDATE_ENTRIES === "1") {
    await writeFile(SNAPSHOT, JSON.stringify(current, null, 2) + "\n");
  }
  const snapshot = JSON.parse(await readFile(SNAPSHOT, "utf8")) as Record<string, string[]>;
  assert.deepEqual(
    current,
    snapshot,
    "an entry's names changed: if that is meant, run UPDATE_ENTRIES=1 and review the diff",
  );
});

test('Deno\'s "." (lib/mod_deno.ts) exports what npm\'s "." (lib/mod.ts) does', async () => {
  assert.deepEqual(
    current["."],
    (await exportedNames(join(ROOT, "lib", "mod.ts"))).map((e) => (e.type ? "type " : "") + e.name),
  );
});

// Importing an entry runs nothing (./cli runs only as the main module).
for (const [key, path] of entries) {
  test(`the values that "${key}" exports at run time are the ones its source lists`, async () => {
    const mod = await import(pathToFileURL(join(ROOT, path)).href);
    const values = current[key].filter((n) => !n.startsWith("type ")).sort();
    assert.deepEqual(Object.keys(mod).sort(), values);
  });
}
