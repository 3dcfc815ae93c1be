// The approvals' line diff and the corpus-wide minisearch segment, where the fourth mutation run
// of `catalog` (commit 53cba08) left mutants alive: a line added above the first, a first line
// replaced, a line kept once of two, and lines removed at the end (a held skill that lost its last
// lines, through a real catalog); a diff of exactly 80 lines shown whole; and a segment whose
// corpus is itself answering exactly as minisearch does (scores, the query terms matched, each
// word's fields), term boosts included. And a model's answer after a stray `{` in its prose: once
// lost (the scan stopped at the first `{` without an end), now read (a bug found on mutant 115 of
// that run, `_answer.ts`'s `break`).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import MiniSearch, { type Options, type SearchOptions } from "minisearch";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../lib/mod.ts";
import { lineDiff } from "../../lib/catalog/_diff.ts";
import { corpusOf, CorpusSearch } from "../../lib/catalog/_corpus_search.ts";
import { readAnswer } from "../../lib/catalog/_answer.ts";

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

describe("CorpusSearch", () => {
  interface Doc {
    id: string;
    name: string;
    description: string;
  }
  const DOCS: Doc[] = [
    { id: "sorter", name: "sort bam", description: "Sort BAM files by coordinate; sort by name" },
    {
      id: "aligner",
      name: "align reads",
      description: "Align reads; the aligner writes alignments",
    },
    { id: "indexer", name: "index", description: "Index a sorted BAM file for alignment viewers" },
    { id: "counter", name: "count", description: "Count reads per chromosome" },
  ];
  const OPTIONS: Options<Doc> = {
    fields: ["name", "description"],
    searchOptions: {
      boost: { name: 3 },
      prefix: (term: string) => term.length >= 5,
      fuzzy: (term: string) => (term.length >= 7 ? 1 : false),
      weights: { prefix: 0.4, fuzzy: 0.2 },
    },
  };
  const QUERIES: Array<[string, SearchOptions?]> = [
    ["sort bam"],
    ["align reads"],
    ["aligne alignment viewers"],
    ["count reads sorted"],
    ["reads bam", { boostTerm: (_term: string, i: number) => (i === 0 ? 3 : 0.5) }],
  ];

  test("a segment whose corpus is itself answers as minisearch: scores, terms and fields", () => {
    const plain = new MiniSearch<Doc>(OPTIONS);
    plain.addAll(DOCS);
    const segment = new CorpusSearch<Doc>(OPTIONS);
    segment.addAll(DOCS);
    segment.corpus = corpusOf([segment]);
    for (const [query, options] of QUERIES) {
      const want = plain.search(query, options);
      const got = segment.search(query, options);
      assert.ok(want.length >= 2, query);
      assert.deepEqual(
        got.map(({ score: _, ...hit }) => hit),
        want.map(({ score: _, ...hit }) => hit),
        query,
      );
      got.forEach((hit, i) => {
        const diff = Math.abs(hit.score - want[i].score);
        assert.ok(
          diff <= 1e-9 * want[i].score,
          `${query}: ${hit.id} ${hit.score} ${want[i].score}`,
        );
      });
    }
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
