// Keyword ranking (createKeywordIndex, lib/catalog/search/_keyword_index.ts): tokenisation of compound
// words, stemming, stop words, and BM25+ with field boosts; typos and derivations read at half
// weight; a title of its own, fields a document leaves out, the weight of one worked example;
// ties ranked by id whatever the limit (the first `limit` are those of the whole ranking).
// Over 300 lines: one behaviour, how the keyword index ranks.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createCatalog } from "../../../lib/mod.ts";
import { createKeywordIndex } from "../../../lib/catalog/mod.ts";
import { normalizeTerm, tokenize } from "../../../lib/catalog/search/_terms.ts";
import {
  buildKeywordIndex,
  sharedKeywordIndex,
} from "../../../lib/catalog/search/_keyword_index.ts";
import type { KeywordDocument } from "../../../lib/catalog/model/types.ts";
import { fn } from "../_entries.ts";

const terms = (text: string) =>
  tokenize(text).flatMap((t) => normalizeTerm(t) ?? []).filter((t) => t !== null);

test("compound words are searchable whole and by part", () => {
  assert.deepEqual(terms("featureCounts"), ["featurecount", "featur", "count"]);
  assert.deepEqual(terms("hisat2-build"), ["hisat2-build", "hisat2", "build"]);
  // A region is one term (and the word "region"): its parts are not words of the request.
  assert.deepEqual(terms("chr7:1000-2000"), ["chr7:1000-2000", "region"]);
  assert.deepEqual(terms("Sorting the sorted sorts"), ["sort", "sort", "sort"]);
  assert.deepEqual(
    terms("base quality score recalibration").sort(),
    terms("recalibrate base quality score").sort(),
  );
  assert.deepEqual(terms("I want to use it with 30 threads"), ["thread"]);
});

test("BM25+ ranks by field boosts, stems, forgives typos and drops what does not match", async () => {
  const index = await createKeywordIndex([
    { id: "samtools", name: "samtools", description: "Sorts and indexes BAM files", tags: ["bam"] },
    {
      id: "featurecounts",
      name: "featureCounts",
      description: "Counts reads per gene",
      tags: ["rna-seq"],
    },
    {
      id: "seqkit",
      name: "seqkit",
      description: "FASTA and FASTQ toolkit",
      keywords: ["Subsample 10 percent of a paired-end run"],
    },
  ]);
  assert.equal(index.size, 3);
  assert.equal(index.search("sorting my bam")[0].id, "samtools");
  assert.equal(index.search("featureCounts on my library")[0].id, "featurecounts");
  assert.equal(index.search("subsample a run")[0].id, "seqkit", "an example task line counts");
  assert.equal(index.search("samtool")[0].id, "samtools", "a typo is forgiven");
  assert.deepEqual(index.search("weather in Paris"), []);
  const hits = index.search("bam reads", { limit: 1 });
  assert.equal(hits.length, 1);
});

test("a derivation no entry holds is read as the term it derives from, at half weight", async () => {
  const index = await createKeywordIndex([
    { id: "renting", name: "house_renting", description: "Find houses for renting" },
    { id: "buying", name: "house_buying", description: "Find houses to buy" },
  ]);
  // The stemmer joins renting/rents/rented to `rent`, not `rental`: the derivation does.
  const [first, second] = index.search("a rental house");
  assert.equal(first.id, "renting");
  assert.ok(first.score > second.score);
  const exact = index.search("a house for renting")[0];
  assert.equal(exact.id, "renting");
  assert.ok(first.evidence < exact.evidence, `${first.evidence} < ${exact.evidence}`);
  // Too short a base is not a derivation (`paper` is not `pap` + er).
  assert.deepEqual(index.search("paper"), []);
});

test("a skill without structured sections is indexed by its body's outline", async () => {
  const { factsOf } = await import("../../../lib/catalog/build/_skill_entry.ts");
  const { parseSkill } = await import("../../../lib/skill/mod.ts");
  const { skill: agentSkill } = await parseSkill(
    [
      "---",
      "name: pileup-helper",
      "description: Helps with sequencing data.",
      "---",
      "# Pileup helper",
      "",
      "Computes **per-base depth** with [pysam](https://pysam.org) over exons.",
      "A second line of the same paragraph.",
      "",
      "Later prose that is not the first paragraph: zebrafish.",
      "",
      "## Count reads over a region",
      "",
      "```bash",
      "# a comment is not a command",
      "pysam-count --bed exons.bed reads.bam",
      "more lines of the same block",
      "```",
    ].join("\n"),
  );
  const facts = factsOf(agentSkill);
  assert.deepEqual(facts.tasks, []);
  assert.deepEqual(facts.keywords, [
    "Computes per-base depth with pysam over exons. A second line of the same paragraph.",
    "pysam-count --bed exons.bed reads.bam",
    "Pileup helper",
    "Count reads over a region",
  ]);
  // Found by words only its body holds; prose after the first paragraph is not indexed.
  const index = await createKeywordIndex([
    {
      id: "pileup-helper",
      name: facts.name,
      description: facts.description,
      keywords: facts.keywords,
      tasks: facts.tasks,
    },
    { id: "other", name: "other", description: "Sequencing data helper too" },
  ]);
  assert.equal(index.search("per-base depth over exons")[0]?.id, "pileup-helper");
  assert.deepEqual(index.search("zebrafish"), []);
  // A skill with structured sections keeps its concepts and tasks.
  const { skill: structured } = await parseSkill(
    "---\nname: x\ndescription: y\n---\n## Concepts\n\n- alpha\n\n## Examples\n\n### Do beta\n" +
      "**Args:** `b`\n**Explanation:** c\n",
  );
  assert.deepEqual(factsOf(structured).tasks, ["Do beta"]);
  assert.deepEqual(factsOf(structured).keywords, ["alpha", "Do beta"]);
});

const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);

describe("ranking", () => {
  test("field boosts: a word of a long name outranks the same word as a whole description", async () => {
    // Without boosts the one-word description scores higher (a shorter field holds the word).
    const index = await createKeywordIndex([
      { id: "named", name: "frobnicate widgets quickly and well", description: "Does things" },
      { id: "described", name: "other", description: "frobnicate" },
    ]);
    assert.deepEqual(ids(index.search("frobnicate")), ["named", "described"]);
    // Tags (weight 3) over a description (2) the same way, the fields of equal length (a
    // shorter field weighs more: that is BM25F's length normalisation, not a boost).
    const tags = await createKeywordIndex([
      { id: "tagged", name: "alpha", description: "Does things", tags: ["frob", "gamma"] },
      { id: "described", name: "beta", description: "frob gamma", tags: ["stuff", "more"] },
    ]);
    assert.deepEqual(ids(tags.search("frob")), ["tagged", "described"]);
  });

  test("a word of five letters or more that no entry holds is read one edit away, at half weight", async () => {
    const index = await createKeywordIndex([
      { id: "kallisto", name: "kallisto", description: "Pseudoaligns reads" },
      { id: "other", name: "kalliste", description: "Something else", tags: ["kallisto"] },
    ]);
    const exact = index.search("kallisto");
    const typo = index.search("kalisto");
    assert.deepEqual(ids(typo), ids(exact), "a letter dropped finds what the word finds");
    // Half weight, where no name bonus hides it: a word of a description.
    const described = await createKeywordIndex([
      { id: "a", name: "alpha", description: "Quantifies with kallisto" },
      { id: "b", name: "beta", description: "Something else" },
    ]);
    const [word] = described.search("kallisto");
    const [near] = described.search("kalisto");
    assert.equal(near.id, "a");
    assert.ok(Math.abs(near.score - word.score / 2) < 1e-9, `${near.score} is half ${word.score}`);
    assert.deepEqual(ids(index.search("kallsito")), ids(exact), "two neighbours swapped");
    assert.deepEqual(ids(index.search("kalsto")), [], "two edits: nothing");
    // No prefix matching (minisearch's is gone): part of a word is not the word.
    assert.deepEqual(ids(index.search("kallis")), [], "a prefix is not a match");
    // A word some entry holds is never read as another one edit away.
    assert.deepEqual(ids(index.search("kalliste")), ["other"]);
    // Four letters are too short to guess at.
    const short = await createKeywordIndex([{ id: "frob", name: "frob", description: "x" }]);
    assert.deepEqual(ids(short.search("frab")), []);
  });

  test("a title is searched; fields a document leaves out hold nothing", async () => {
    const index = await createKeywordIndex([
      { id: "titled", name: "x", title: "Quux Helper", description: "Helps" },
      { id: "bare", name: "z", description: "Does nothing in particular" },
    ]);
    assert.deepEqual(ids(index.search("quux")), ["titled"]);
    // No title, tags or keywords: a query of words in none of the documents finds nothing.
    assert.deepEqual(ids(index.search("Stryker was here")), []);
  });

  test("a request phrased like one worked example finds it before words spread over lines", async () => {
    // The same words and counts in both; in `example` they are one line, in `spread` four.
    const index = await createKeywordIndex([
      {
        id: "spread",
        name: "tally",
        description: "Tallies",
        keywords: ["count things", "reads of it", "per sample", "chromosome"],
      },
      {
        id: "example",
        name: "tally",
        description: "Tallies",
        keywords: ["count reads per chromosome", "things", "of it", "sample"],
      },
    ]);
    const hits = index.search("count reads per chromosome");
    assert.deepEqual(ids(hits), ["example", "spread"]);
    assert.ok(hits[0].score > hits[1].score, "the line adds to the score, not a tie broken by id");
    assert.ok(hits.every((h) => h.score > 0));
  });

  test("an example task the request covers whole outranks one it covers in part", async () => {
    // The same task words, the same field length; `whole`'s line is the request's words only.
    const index = await createKeywordIndex([
      {
        id: "a-part",
        name: "one",
        description: "Tallies",
        tasks: ["count reads per chromosome with alpha beta gamma"],
      },
      {
        id: "whole",
        name: "two",
        description: "Tallies",
        tasks: ["count reads per chromosome", "with alpha beta gamma"],
      },
    ]);
    assert.deepEqual(ids(index.search("count reads per chromosome")), ["whole", "a-part"]);
  });

  test("a description weighs more than the same word in other words (concepts)", async () => {
    const index = await createKeywordIndex([
      { id: "a-concept", name: "one", description: "Tallies", keywords: ["frob"] },
      { id: "described", name: "two", description: "frob" },
    ]);
    assert.deepEqual(ids(index.search("frob")), ["described", "a-concept"]);
  });

  describe("ties and limits", () => {
    // 40 documents in five groups of eight alike (same words, so the same score), inserted in
    // neither score nor id order.
    const documents: KeywordDocument[] = Array.from({ length: 40 }, (_, i) => {
      const group = (i * 7 + 3) % 5;
      return {
        id: `e${String((i * 17) % 40).padStart(2, "0")}`,
        name: "entry",
        description: `${"frob ".repeat(group + 1)}${"pad ".repeat(5 - group)}`,
      };
    });
    const index = buildKeywordIndex(documents);
    const whole = index.search("frob", { limit: Infinity });

    test("higher score first, then id", () => {
      assert.equal(whole.length, 40);
      for (let i = 1; i < whole.length; i++) {
        const [a, b] = [whole[i - 1], whole[i]];
        assert.ok(a.score >= b.score, `${a.id} before ${b.id}`);
        if (a.score === b.score) assert.ok(a.id < b.id, `tie: ${a.id} before ${b.id}`);
      }
      assert.equal(new Set(whole.map((h) => h.score)).size, 5, "five scores, ties within each");
    });

    test("the first `limit` hits are those of the whole ranking, for any limit", () => {
      for (let limit = 1; limit <= 40; limit++) {
        assert.deepEqual(
          ids(index.search("frob", { limit })),
          ids(whole.slice(0, limit)),
          `limit ${limit}`,
        );
      }
      assert.equal(index.search("frob").length, 10, "10 by default");
    });

    test("at most `limit`: none for 0, the whole part of a fraction", () => {
      assert.deepEqual(index.search("frob", { limit: 0 }), []);
      assert.deepEqual(ids(index.search("frob", { limit: 2.5 })), ids(whole.slice(0, 2)));
    });

    test("at most `limit`: a negative limit finds nothing (it found all but the last few)", () => {
      assert.deepEqual(index.search("frob", { limit: -1 }), []);
      assert.deepEqual(index.search("frob", { limit: -3 }), []);
    });

    test("in segments, the first `limit` are those of one index of all the documents", () => {
      // Each segment's hits come best first; a later segment's are better here, with later ids.
      const weak = Array.from({ length: 8 }, (_, i): KeywordDocument => ({
        id: `a${i}`,
        name: "entry",
        description: `frob ${"pad ".repeat(i + 4)}`,
      }));
      const strong = Array.from({ length: 8 }, (_, i): KeywordDocument => ({
        id: `z${i}`,
        name: "entry",
        description: `frob frob ${"pad ".repeat(i)}`,
      }));
      const segments = [weak, strong].map((docs, n) => ({
        key: `kim: limits in segments ${n}`,
        stableKey: () => `kim: limits in segments ${n}`,
        documents: () => docs,
      }));
      const shared = sharedKeywordIndex(segments);
      const one = buildKeywordIndex([...weak, ...strong]).search("frob", { limit: Infinity });
      assert.equal(one[0].id, "z0");
      for (let limit = 1; limit <= 16; limit++) {
        assert.deepEqual(
          ids(shared.search("frob", { limit })),
          ids(one.slice(0, limit)),
          `limit ${limit}`,
        );
      }
    });
  });
});

test("equal keyword scores are ordered by id; the top 3 are the first 3 of the full ranking", async () => {
  // 40 functions with the same description: every hit ties. Registered in a shuffled order.
  const names = Array.from({ length: 40 }, (_, i) => `convert_${String(i).padStart(2, "0")}`);
  const shuffled = names.map((n, i) => ({ n, k: (i * 17) % 40 })).sort((a, b) => a.k - b.k);
  const catalog = await createCatalog({
    functions: shuffled.map(({ n }) => fn(n, "Convert temperature units")),
  });
  const full = catalog.rank("temperature", { limit: Infinity });
  assert.equal(full.length, 40);
  assert.equal(new Set(full.map((r) => r.score)).size, 1, "every score ties");
  assert.deepEqual(full.map((r) => r.entry.id), names);
  const top = catalog.rank("temperature", { limit: 3 });
  assert.deepEqual(top.map((r) => r.entry.id), names.slice(0, 3));
});
