// How words become search terms (lib/catalog/search/_terms.ts): the stemmer (Porter2, British -ise/-yse
// folded first) on real English words, tokens and their parts (compounds, camelCase, regions,
// file names, scripts without spaces), stop words checked after stemming, numbers, and a genomic
// region only as a whole term.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeTerm, stem, termsOf, tokenize } from "../../../lib/catalog/search/_terms.ts";

describe("stem", () => {
  // Each pair: a word, and the term it is indexed as (Porter2, the Snowball English stemmer, with
  // British -ise/-yse spellings folded to -ize/-yze first). The old suffix stripper's own rules
  // (-ment past seven letters, a final e dropped) gave way to Porter2's (issue 47).
  const STEMS: Array<[string, string]> = [
    ["bam", "bam"], // three letters or fewer: as they are
    ["hg38", "hg38"], // digits: as it is
    ["sorts", "sort"],
    ["sorting", "sort"],
    ["sorted", "sort"],
    ["reads", "read"],
    ["queries", "queri"],
    ["indexes", "index"],
    ["passes", "pass"],
    ["matches", "match"],
    ["class", "class"],
    ["status", "status"],
    ["news", "news"], // Porter2 keeps it: not the everyday "new"
    ["skies", "sky"],
    ["alignment", "align"],
    ["alignments", "align"],
    ["calculator", "calcul"], // derivations joined: calculate, calculator
    ["calculate", "calcul"],
    ["normalise", "normal"],
    ["normalized", "normal"],
    ["normalisation", "normal"],
    ["analysed", "analyz"],
    ["analyzed", "analyz"],
    ["recalibration", "recalibr"],
    ["recalibrate", "recalibr"],
    ["organisations", "organ"],
    ["running", "run"],
    ["mapped", "map"],
    ["generously", "generous"],
    ["DESeq2's".toLowerCase(), "deseq2"], // a possessive is its word
  ];
  for (const [word, term] of STEMS) {
    test(`${word} → ${term}`, () => assert.equal(stem(word), term));
  }
});

describe("tokenize", () => {
  test("compounds whole and by parts of three or more; camelCase split; separators inside only", () => {
    assert.deepEqual(tokenize("hisat2-build"), ["hisat2-build", "hisat2", "build"]);
    assert.deepEqual(tokenize("featureCounts"), ["featureCounts", "feature", "Counts"]);
    assert.deepEqual(tokenize("URLTool"), ["URLTool", "URL", "Tool"]);
    // Parts under three characters are no terms: "sci-fi" is not "fi" (ko-fi).
    assert.deepEqual(tokenize("sci-fi"), ["sci-fi", "sci"]);
    assert.deepEqual(tokenize("a.b_c/d"), ["a.b_c/d"]);
    assert.deepEqual(tokenize("-lead x--y"), ["lead", "x", "y"]);
    assert.deepEqual(tokenize("ÄpfelBaum"), ["ÄpfelBaum", "Äpfel", "Baum"]);
    assert.deepEqual(tokenize("sort, then index."), ["sort", "then", "index"]);
    // Memoised: the same token twice gives equal, separate lists.
    const first = tokenize("hisat2-build");
    first.push("x");
    assert.deepEqual(tokenize("hisat2-build"), ["hisat2-build", "hisat2", "build"]);
  });

  test("a region is one token, thousands separators and all; a file name is its file types", () => {
    assert.deepEqual(tokenize("chr7:1000-2000"), ["chr7:1000-2000"]);
    // In the order of the text (read in one pass).
    assert.deepEqual(tokenize("reads in chr7:55,019,017-55,211,628 please"), [
      "reads",
      "in",
      "chr7:55,019,017-55,211,628",
      "please",
    ]);
    // A time range is no region, in a text as alone.
    assert.deepEqual(termsOf("open 09:00-17:00 daily"), ["open", "09:00-17:00", "daili"]);
    assert.deepEqual(tokenize("sort tumor.bam"), ["sort", ".bam"]);
    assert.deepEqual(tokenize("reads.fq.gz"), [".fq", ".gz"]);
    // Not file names: a module path, a version.
    assert.deepEqual(tokenize("Bio.Entrez v1.2"), ["Bio.Entrez", "Bio", "Entrez", "v1.2"]);
  });

  test("scripts without spaces are cut into words (Intl.Segmenter)", () => {
    const words = tokenize("检索相关的学术论文");
    assert.ok(words.length >= 3, words.join("|"));
    assert.equal(words.join(""), "检索相关的学术论文");
  });
});

describe("normalizeTerm", () => {
  test("stop words (after stemming) and bare numbers index nothing; regions also index `region`", () => {
    // Quantities are stop words: "how many reads" is not featureCounts' "many BAM files".
    for (const term of ["The", "files", "1,000", "3.5", "42", "runs", "using", "many", "Several"]) {
      assert.equal(normalizeTerm(term), null, term);
    }
    assert.deepEqual(normalizeTerm("chr7:1000-2000"), ["chr7:1000-2000", "region"]);
    assert.deepEqual(normalizeTerm("1:100,000-200,000"), ["1:100000-200000", "region"]);
    assert.deepEqual(normalizeTerm("X7:1-2"), ["x7:1-2", "region"]);
    assert.equal(normalizeTerm("chr7:a-2"), "chr7:a-2");
    assert.equal(normalizeTerm("Sorting"), "sort");
    assert.equal(normalizeTerm(".BAM"), "bam");
    assert.equal(normalizeTerm("v1.2x"), "v1.2x");
  });
});

describe("stem: Porter2, British spellings folded first, stop words after stemming", () => {
  // Forms a user writes for one thing, and the one term they are indexed as.
  const SAME: Array<[string[], string, string]> = [
    [["sorting", "sorted", "sorts"], "sort", "inflections"],
    [["calculate", "calculator", "calculation"], "calcul", "derivations Porter2 joins"],
    [["normalise", "normalised", "normalize", "normalisation"], "normal", "-ise folded to -ize"],
    [["analysed", "analyzed", "analyses"], "analyz", "-yse folded to -yze"],
    [["precise", "precisely"], "preciz", "-ise folded before -ly too"],
    // Two letters before -ise: no fold, so the word and its inflections still agree.
    [["raise", "raised", "raising"], "rais", "too short to fold"],
    [["noise", "noises"], "nois", "too short to fold"],
    [["sample's", "sample", "samples"], "sampl", "a possessive is the word"],
  ];
  for (const [words, term, why] of SAME) {
    test(`${words.join(", ")} → ${term} (${why})`, () => {
      for (const w of words) assert.equal(stem(w), term, w);
    });
  }

  test("only a final -ise family is folded; words with digits and of three letters stay", () => {
    // -ise inside a word is no suffix: `advertisements` is not `advertiz…`.
    assert.equal(stem("advertisements"), "advertis");
    assert.equal(stem("hisat2"), "hisat2");
    assert.equal(stem("bams"), "bam");
    assert.equal(stem("ies"), "ies");
  });

  test("stop words are checked after stemming: `runs` is `run`; `news` is not `new`", () => {
    for (const w of ["runs", "running", "uses", "using", "helps", "shows"]) {
      assert.equal(normalizeTerm(w), null, w);
    }
    assert.equal(normalizeTerm("news"), "news");
    assert.equal(normalizeTerm("News"), "news");
    // Numbers say nothing; a file type is its extension.
    assert.equal(normalizeTerm("2024"), null);
    assert.equal(normalizeTerm("1,000.5"), null);
    assert.equal(normalizeTerm(".bam"), "bam");
  });
});

describe("normalizeTerm: a genomic region only as a whole term", () => {
  test("a time range, a file named by a region and a range after other words are no regions", () => {
    assert.deepEqual(normalizeTerm("chr7:100-200"), ["chr7:100-200", "region"]);
    // A region with more after it: a file, and the end of a time range.
    assert.equal(normalizeTerm("chr7:100-200.bed"), "chr7:100-200.bed");
    assert.equal(normalizeTerm("09:00-17:00"), "09:00-17:00");
    // Something that ends like a region after other words.
    assert.equal(normalizeTerm("Mon-Fri:9-17"), "mon-fri:9-17");
  });
});
