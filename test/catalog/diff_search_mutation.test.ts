// The approvals' line diff, where the fourth mutation run
// of `catalog` (commit 53cba08) left mutants alive: a line added above the first, a first line
// replaced, a line kept once of two, and lines removed at the end (a held skill that lost its last
// lines, through a real catalog); a diff of exactly 80 lines shown whole. (The corpus-wide
// minisearch segment it also held is gone: the keyword index has its own postings, issue 47.) And a model's answer after a stray `{` in its prose: once
// lost (the scan stopped at the first `{` without an end), now read (a bug found on mutant 115 of
// that run, `_answer.ts`'s `break`).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../lib/mod.ts";
import { lineDiff } from "../../lib/catalog/build/_diff.ts";
import { readAnswer } from "../../lib/catalog/select/_answer.ts";

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
});

describe("readAnswer", () => {
  test("an answer after a stray `{` in the prose is still read", () => {
    const want = {
      complexity: "simple",
      skills: ["samtools"],
      tools: [],
      needs_external: false,
      reasoning: "",
    };
    assert.deepEqual(readAnswer('Files look like {sample.bam, so: {"skills": ["samtools"]}'), want);
    // An outer object cut off before its end: the whole object inside it is the answer.
    assert.deepEqual(readAnswer('{"answer": {"skills": ["samtools"]}'), want);
    // Nothing whole after the stray `{`: still no answer.
    assert.throws(() => readAnswer('Files look like {sample.bam, {"skills": ['), /holds no JSON/);
  });
});
