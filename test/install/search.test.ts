// searchSkills: registry and local skills ranked together (each hit says where it is from; an
// unreachable registry is a diagnostic), without a resolver only the registry, the index's
// problems as diagnostics, at most 20 hits by default (or `limit`), equal scores ordered by name,
// a registry entry keeping its version; local sources' diagnostics name the source. Through the
// public "./install" entry against a real registry on 127.0.0.1 (./_registry.ts).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { searchSkills } from "../../lib/install/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { publish, setIndex, skillText, type TestRegistry, useRegistry } from "./_registry.ts";
import { createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import { deadUrl } from "../_closed_port.ts";

let registry: TestRegistry;
let dir: string;
const options = () => ({ registry: registry.url, communityDir: dir, retries: 0 });
useRegistry("skillmux-search-", (r, d) => {
  registry = r;
  dir = d;
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

test("ranks registry and local skills together; an unreachable registry is a diagnostic", async () => {
  setIndex(registry, [
    {
      ...await publish(registry, "kraken2", "1.0.0"),
      description: "Taxonomic classification of reads",
    },
    { ...await publish(registry, "bamsort", "0.1"), description: "Sort BAM files quickly" },
  ]);
  const resolver = createResolver({ sources: [createBuiltinSource()] });
  const found = await searchSkills("taxonomic classification", { ...options(), resolver });
  const kraken = found.hits.filter((h) => h.name === "kraken2");
  assert.deepEqual(
    kraken.map((h) => h.source).sort(),
    ["builtin", "registry"],
    "listed from each",
  );
  assert.ok(found.hits.indexOf(kraken[1]) <= 2, "both near the top");
  assert.equal(kraken.find((h) => h.source === "registry")?.version, "1.0.0");
  const sort = await searchSkills("sort a bam by coordinate", {
    ...options(),
    resolver,
    limit: 100,
  });
  assert.ok(sort.hits.slice(0, 2).some((h) => h.name === "samtools" && h.source === "builtin"));
  assert.ok(sort.hits.some((h) => h.name === "bamsort" && h.source === "registry"));
  const offline = await searchSkills("sort a bam by coordinate", {
    registry: await deadUrl("/"),
    communityDir: dir,
    retries: 0,
    resolver,
  });
  assert.ok(offline.hits.some((h) => h.name === "samtools"));
  assert.match(offline.diagnostics[0], /^registry: Cannot download the registry index/);
});
