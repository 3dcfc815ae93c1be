// searchSkills, rules no test held under mutation: without a resolver only the registry is
// searched, the index's problems come back as diagnostics, at most 20 hits by default (or
// `limit`), equal scores ordered by name, and a registry entry keeps its version. Through the
// public "./install" entry against a real registry on 127.0.0.1 (./_registry.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { searchSkills } from "../../lib/install/mod.ts";
import { publish, setIndex, startRegistry, type TestRegistry } from "./_registry.ts";

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
