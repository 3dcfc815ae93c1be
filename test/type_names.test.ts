// A type, interface or class name has one home in lib/ (docs/architecture.md, "Glossary"): two
// files that export the same name (a private `CatalogEntry` beside the public one) make a reader
// guess which one an import means. Each name is exported by one file.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";

const DECLARED = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class)\s+([A-Z]\w*)/gm;

test("no two files of lib/ export a type, interface or class of the same name", async () => {
  const lib = new URL("../lib/", import.meta.url);
  const homes = new Map<string, string[]>();
  const files = (await readdir(lib, { recursive: true })).filter((f) =>
    f.endsWith(".ts") && !f.endsWith(".d.ts")
  );
  assert.ok(files.length > 100, `read ${files.length} files of lib/`);
  for (const file of files) {
    const source = await readFile(new URL(file, lib), "utf8");
    for (const [, name] of source.matchAll(DECLARED)) {
      homes.set(name, [...homes.get(name) ?? [], file]);
    }
  }
  assert.ok(homes.has("CatalogEntry"), "the public CatalogEntry is found");
  const twice = [...homes].filter(([, at]) => at.length > 1).map(([n, at]) =>
    `${n}: ${at.join(", ")}`
  );
  assert.deepEqual(twice, []);
});
