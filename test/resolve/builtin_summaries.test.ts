// Listing the package's built-ins loads their summaries (lib/resolve/_builtin_summaries.json,
// generated with the texts), not every text: the summaries are current, and the default source
// lists, resolves and ranks exactly as a source over the texts (which parses every one to list).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { renderBuiltinSummaries, SUMMARIES_PATH } from "../../scripts/gen_builtin.ts";
import { createCatalog } from "../../lib/catalog/catalog.ts";
import { createBuiltinSource, createResolver } from "../../lib/mod.ts";
import { builtinSkillNames } from "../../lib/resolve/mod.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";

const call = { signal: new AbortController().signal };

test("lib/resolve/_builtin_summaries.json is generated from skills/*.md (run `npm run gen`)", async () => {
  assert.equal(await readFile(SUMMARIES_PATH, "utf8"), await renderBuiltinSummaries());
});

test("the default source's names and summaries equal those parsed from the texts", async () => {
  const fromTexts = createBuiltinSource({ skills: BUILTIN_SKILLS });
  const byDefault = createBuiltinSource();
  assert.deepEqual(await byDefault.list(call), await fromTexts.list(call));
  assert.deepEqual(await builtinSkillNames(), Object.keys(BUILTIN_SKILLS).sort());
  assert.deepEqual(await byDefault.summaries!(call), await fromTexts.summaries!(call));
  assert.equal(await byDefault.peek!("samtools", call), true);
  assert.equal(await byDefault.peek!("no-such-tool", call), false);
  const entry = await byDefault.get("samtools", call);
  assert.equal(entry?.text, BUILTIN_SKILLS["samtools"], "the body is the text itself");
});

test("the listing and the catalog's ranking are byte-identical to those built from the texts", async () => {
  const catalogOf = (skills?: typeof BUILTIN_SKILLS) =>
    createCatalog({
      resolver: createResolver({ sources: [createBuiltinSource(skills ? { skills } : {})] }),
      approvals: { storage: createMemoryStorage() },
    });
  const [light, heavy] = await Promise.all([catalogOf(), catalogOf(BUILTIN_SKILLS)]);
  assert.deepEqual(light.entries, heavy.entries);
  assert.equal((await light.render()).text, (await heavy.render()).text);
  assert.equal(light.version, heavy.version);
  for (const query of ["sort and index a BAM file", "align PacBio HiFi reads", "call variants"]) {
    assert.deepEqual(light.rank(query), heavy.rank(query), query);
  }
  light.dispose();
  heavy.dispose();
});
