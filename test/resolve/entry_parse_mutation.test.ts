// How a source's entry is parsed (lib/resolve/_query.ts parseEntry; survivors of the first
// `resolve` run): an entry without a `format` is detected (a legacy TOML skill parses); a parse
// error names the entry's location, not only its source; and the parser's warnings reach the
// answer, each with its source, name and details.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver, type SkillSource } from "../../lib/mod.ts";
import type { SourceEntry } from "../../lib/resolve/mod.ts";

const source = (entry: SourceEntry): SkillSource => ({
  label: "team",
  list: () => Promise.resolve(["demo"]),
  get: () => Promise.resolve(entry),
});

test("an entry without a format is detected: a legacy TOML skill parses", async () => {
  const text = '[meta]\nname = "demo"\ndescription = "From TOML. Use when testing."\n';
  const hit = await createResolver({ sources: [source({ text })] }).resolve("demo");
  assert.equal(hit.skill.description, "From TOML. Use when testing.");
  assert.equal(hit.skill.format, "toml");
});

test("a parse error names the entry's location", async () => {
  const resolver = createResolver({
    sources: [source({ text: "---\nname: demo\n", location: "team/demo/SKILL.md" })],
  });
  const { diagnostics } = await resolver.list();
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].problem, "invalid");
  assert.match(diagnostics[0].message, /team\/demo\/SKILL\.md/);
});

test("the parser's warnings reach the answer with their source, name and details", async () => {
  const text =
    "---\nname: demo\ndescription: Warned. Use when testing.\nflavour: mint\n---\nBody\n";
  const hit = await createResolver({ sources: [source({ text })] }).resolve("demo");
  const warning = hit.diagnostics.find((d) => d.problem === "warning");
  assert.ok(warning, JSON.stringify(hit.diagnostics));
  assert.equal(warning.source, "team");
  assert.equal(warning.name, "demo");
  assert.match(warning.message, /"flavour" is not a known skill field/);
  assert.equal(warning.details?.[0].message, warning.message);
});
