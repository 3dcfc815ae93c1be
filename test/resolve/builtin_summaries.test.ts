// Listing the package's built-ins loads their summaries (lib/resolve/_builtin_summaries.json,
// generated with the texts), not every text: the summaries are current, and the default source
// lists, resolves and ranks exactly as a source over the texts (which parses every one to list).
// Building them (lib/resolve/_builtin_summary.ts): sorted by name, a nameless skill takes its key,
// one that does not parse is left out; only the summaries file's shape is taken as a table.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { createCatalog } from "../../lib/catalog/build/catalog.ts";
import { createBuiltinSource, createResolver } from "../../lib/mod.ts";
import { builtinSkillNames } from "../../lib/resolve/mod.ts";
import { isSummaryTable, summarizeBuiltins } from "../../lib/resolve/_builtin_summary.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { renderBuiltinSummaries, SUMMARIES_PATH } from "../../scripts/gen_builtin.ts";

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

describe("summarizeBuiltins and the summaries file's shape", () => {
  const doc = (header: string) =>
    `---\n${header}description: Notes for BAM files. Use when sorting.\n---\n## Steps\n\nSort it.\n`;

  test("summaries sorted by name; a nameless skill takes its key; one that does not parse is left out", async () => {
    const summaries = await summarizeBuiltins({
      zeta: doc("name: zeta\n"),
      alpha: doc("name: alpha\n"),
      broken: "---\nname: [\n---\n",
      nameless: doc(""),
    });
    assert.deepEqual(summaries.map((s) => [s.name, s.location]), [
      ["alpha", "builtin:skills/alpha.md"],
      ["nameless", "builtin:skills/nameless.md"],
      ["zeta", "builtin:skills/zeta.md"],
    ]);
    assert.equal(summaries[0].description, "Notes for BAM files. Use when sorting.");
    assert.match(summaries[0].digest, /^sha256:[0-9a-f]{64}$/);
  });

  test("only the summaries file's shape is a summary table; anything else is false, not a throw", () => {
    assert.equal(isSummaryTable({ names: ["a", "b"], summaries: [] }), true);
    assert.equal(isSummaryTable({ names: [], summaries: [] }), true);
    for (
      const value of [
        null,
        undefined,
        "names",
        42,
        {},
        { summaries: [] },
        { names: "ab", summaries: [] },
        { names: [1, "a"], summaries: [] },
        { names: ["a", 1], summaries: [] },
        { names: ["a"] },
        { names: ["a"], summaries: {} },
      ]
    ) {
      assert.equal(isSummaryTable(value), false, JSON.stringify(value) ?? String(value));
    }
  });
});
