// searchSkills: without a resolver only the registry is searched, the index's problems come
// back as diagnostics, at most 20 hits by default (or `limit`), equal scores ordered by name, a
// registry entry keeps its version; local sources' diagnostics name the source. Through the
// public "./install" entry against a real registry on 127.0.0.1 (./_registry.ts).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { searchSkills } from "../../lib/install/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { publish, setIndex, skillText, startRegistry, type TestRegistry } from "./_registry.ts";

let registry: TestRegistry;
before(async () => {
  registry = await startRegistry();
});
after(async () => {
  await registry.close();
});

test("registry only: problems as diagnostics, 20 hits by default, ties by name", async () => {
  const names = Array.from({ length: 25 }, (_, i) => `tool${String(24 - i).padStart(2, "0")}`);
  const entries = [];
  for (const name of names) {
    entries.push({ ...await publish(registry, name, "1.2"), description: "Align reads" });
  }
  setIndex(registry, [...entries, { ...entries[0], name: "Bad Name" }]);
  const found = await searchSkills("align reads", { registry: registry.url, retries: 0 });
  assert.equal(found.hits.length, 20);
  assert.deepEqual(found.hits.map((h) => h.name), [...names].sort().slice(0, 20));
  assert.ok(found.hits.every((h) => h.source === "registry" && h.version === "1.2"));
  assert.equal(found.diagnostics.length, 1);
  assert.match(found.diagnostics[0], /^registry: entry 26: /);
  const all = await searchSkills("align reads", { registry: registry.url, retries: 0, limit: 30 });
  assert.equal(all.hits.length, 25);
  const none = await searchSkills("align reads", {});
  assert.deepEqual(none, { hits: [], diagnostics: [] });
});

test("local sources: their diagnostics name the source; a cancelled listing is a local diagnostic", async () => {
  const root = await mkdtemp(join(tmpdir(), "skillmux-search-"));
  try {
    await writeFile(join(root, "broken.md"), "---\nname: broken\n---\n");
    await writeFile(join(root, "aligner.md"), skillText("aligner", "align reads"));
    const resolver = createResolver({
      sources: [createStorageSource({ label: "community", storage: createFsStorage({ root }) })],
    });
    const found = await searchSkills("align reads testing", { resolver });
    assert.deepEqual(found.hits.map((h) => [h.name, h.source]), [["aligner", "community"]]);
    assert.equal(found.diagnostics.length, 1);
    assert.match(found.diagnostics[0], /^community: .*broken/);

    const reason = new Error("stopped by the caller");
    const cancelled = await searchSkills("align reads", {
      resolver,
      signal: AbortSignal.abort(reason),
    });
    assert.deepEqual(cancelled, { hits: [], diagnostics: ["local: stopped by the caller"] });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
