// Keyword ranking: tokenisation of compound words, stemming, stop words, and BM25+ with boosts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createKeywordIndex } from "../../lib/mod.ts";
import { normalizeTerm, tokenize } from "../../lib/catalog/_terms.ts";

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
