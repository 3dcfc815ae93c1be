// The built-in summaries, unit by unit (lib/resolve/_builtin_summary.ts; survivors of the first
// `resolve` run): a table's summaries come sorted by name, a skill without a `name` field takes
// its table key, one that does not parse is left out; and only a value of the JSON file's shape
// (a `names` array of strings and a `summaries` array) is taken for the summaries file, anything
// else answered `false`, never a throw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isSummaryTable, summarizeBuiltins } from "../../lib/resolve/_builtin_summary.ts";

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
