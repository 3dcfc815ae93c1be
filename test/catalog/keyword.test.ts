// Keyword ranking: tokenisation of compound words, stemming, stop words, and BM25+ with boosts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createKeywordIndex } from "../../lib/catalog/mod.ts";
import { normalizeTerm, tokenize } from "../../lib/catalog/search/_terms.ts";

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
  const { factsOf } = await import("../../lib/catalog/build/_skill_entry.ts");
  const { parseSkill } = await import("../../lib/skill/mod.ts");
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
