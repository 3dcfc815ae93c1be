// The approvals' line diff (lineDiff, lib/catalog/build/_diff.ts): the fewest removals and additions,
// removals first, two lines of context around a change and gaps marked, its caps (80 lines shown,
// huge inputs only counted), and a held skill that lost its last lines, through a real catalog.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../../lib/mod.ts";
import { lineDiff } from "../../../lib/catalog/build/_diff.ts";

describe("lineDiff", () => {
  test("changes at the first line: the fewest removals and additions, removals first", () => {
    // A line added above the first: only the addition, the old first line kept as context.
    assert.equal(lineDiff("samtools sort", "set -e\nsamtools sort"), "+ set -e\n  samtools sort");
    // The first line replaced: the old one removed, then the new one added.
    assert.equal(
      lineDiff("old first\nkeep", "new first\nkeep"),
      "- old first\n+ new first\n  keep",
    );
    // One line replaced by two others: nothing in common.
    assert.equal(lineDiff("sort", "index\nview"), "- sort\n+ index\n+ view");
    // Of two equal lines, one replaced: the other is kept.
    assert.equal(lineDiff("done\ndone", "start\ndone"), "- done\n+ start\n  done");
  });

  test("exactly 80 lines are shown whole, with no count of more", () => {
    const before = Array.from({ length: 40 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 40 }, (_, i) => `new ${i}`).join("\n");
    const lines = lineDiff(before, after).split("\n");
    assert.equal(lines.length, 80);
    assert.equal(lines[0], "- old 0");
    assert.equal(lines[79], "+ new 39");
  });

  test("a skill that lost its last lines is held with them removed at the end of its diff", async () => {
    const SKILL = (body: string) =>
      `---\nname: mine\ndescription: mine notes for sorting BAM files. Use when sorting.\n---\n${body}`;
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({
      initial: {
        "mine.md": SKILL(
          "Sort with samtools sort.\nIndex with samtools index.\n" +
            "Check with samtools flagstat.\nView with samtools view.",
        ),
      },
    });
    const build = () =>
      createCatalog({
        resolver: createResolver({
          sources: [createStorageSource({ label: "user", storage: user })],
        }),
        approvals: { storage: approvals, local: "first-sight" },
      });
    const first = await build();
    assert.equal(first.get("mine")?.approval, "approved");
    first.dispose();
    await user.set("mine.md", SKILL("Sort with samtools sort.\nIndex with samtools index."));
    const second = await build();
    assert.deepEqual(second.held.map((h) => [h.entry.id, h.entry.approval, h.diff]), [[
      "mine",
      "changed",
      [
        "  …",
        "  Sort with samtools sort.",
        "  Index with samtools index.",
        "- Check with samtools flagstat.",
        "- View with samtools view.",
      ].join("\n"),
    ]]);
    second.dispose();
  });

  test("context of two lines around a change, a gap marked, removals before additions", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const after = [...before];
    after[1] = "B";
    after[8] = "I";
    assert.equal(
      lineDiff(before.join("\n"), after.join("\n")),
      [
        "  a",
        "- b",
        "+ B",
        "  c",
        "  d",
        "  …",
        "  g",
        "  h",
        "- i",
        "+ I",
        "  j",
      ].join("\n"),
    );
    assert.equal(lineDiff("same\ntext", "same\ntext"), "");
    assert.equal(lineDiff("x", "x\ny"), "  x\n+ y");
  });

  test("more than 80 lines shown are cut with a count; huge inputs are only counted", () => {
    const before = Array.from({ length: 100 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 100 }, (_, i) => `new ${i}`).join("\n");
    const lines = lineDiff(before, after).split("\n");
    assert.equal(lines.length, 81);
    assert.equal(lines[0], "- old 0");
    assert.equal(lines[80], "  … 120 more lines");
    const big = Array.from({ length: 2_001 }, (_, i) => `line ${i}`).join("\n");
    assert.equal(lineDiff(big, `${big}\nmore`), "- (2001 lines)\n+ (2002 lines)");
    const edge = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join("\n");
    assert.equal(lineDiff(edge, edge), "");
  });
});
