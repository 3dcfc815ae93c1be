// The catalog's text rules, unit by unit, where the first mutation run of `catalog` found them
// held only through rankings (issue 19): how words become search terms (tokens and their parts,
// the stemmer, stop words, numbers, genomic regions), how the listing is laid out (groups,
// server lines, tags, a remote skill's source, the omission note), the token estimate, and the
// evidence a document holds for a query.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeTerm, stem, termsOf, tokenize } from "../../lib/catalog/search/_terms.ts";
import { entryLine, renderLines } from "../../lib/catalog/build/_render.ts";
import { estimateTokens } from "../../lib/catalog/build/tokens.ts";
import { buildKeywordIndex } from "../../lib/catalog/search/_keyword_index.ts";
import type { CatalogEntry } from "../../lib/catalog/model/types.ts";

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
    for (const term of ["The", "files", "1,000", "3.5", "42", "runs", "using"]) {
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

const entry = (
  fields: Partial<CatalogEntry> & Pick<CatalogEntry, "id" | "kind">,
): CatalogEntry => ({
  name: fields.id,
  description: "",
  source: "user",
  tags: [],
  keywords: [],
  needsConnection: false,
  remote: false,
  digest: "d",
  approval: "approved",
  ...fields,
});

describe("the listing", () => {
  test("a line: the first sentence of a long description, five tags, a remote skill's source", () => {
    const long = `Sorts BAM files by coordinate. ${"More words here. ".repeat(12)}`;
    assert.equal(
      entryLine(entry({
        id: "samtools",
        kind: "skill",
        description: long,
        tags: ["a", "b", "c", "d", "e", "f"],
        source: "mcp:team",
      })),
      "samtools: Sorts BAM files by coordinate. [a, b, c, d, e] (from mcp:team)",
    );
    assert.equal(entryLine(entry({ id: "s", kind: "skill", description: "Short." })), "s: Short.");
    // No description: the title, else the name.
    assert.equal(entryLine(entry({ id: "t", kind: "skill", title: "Title" })), "t: Title");
    assert.equal(entryLine(entry({ id: "n", kind: "function", name: "n" })), "n: n");
    // Tools: without their server prefix; tags and sources are a skill's only.
    assert.equal(
      entryLine(entry({
        id: "demo__echo",
        kind: "tool",
        server: "demo",
        description: "Echo.",
        tags: ["x"],
        source: "mcp:demo",
      })),
      "echo: Echo.",
    );
    // An id that does not start with its server's prefix, or is only the prefix, stays whole.
    assert.equal(
      entryLine(entry({ id: "demo__", kind: "tool", server: "demo", description: "D." })),
      "demo__: D.",
    );
    assert.equal(
      entryLine(entry({ id: "x_1", kind: "tool", server: "demo", description: "D." })),
      "x_1: D.",
    );
  });

  test("groups in kind order, a line per server, the omission note in singular and plural", () => {
    const shown = [
      entry({ id: "f", kind: "function", description: "F." }),
      entry({ id: "a__t", kind: "tool", server: "a", description: "T." }),
      entry({ id: "a__u", kind: "tool", server: "a", description: "U." }),
      entry({ id: "b__t", kind: "tool", server: "b", description: "T." }),
      entry({ id: "s", kind: "skill", description: "S." }),
    ];
    assert.equal(
      renderLines(shown, 1),
      [
        "Skills (know-how documents; pick by id):",
        "s: S.",
        "MCP tools by server (id: <server>__<tool>):",
        "a:",
        "t: T.",
        "u: U.",
        "b:",
        "t: T.",
        "Functions of this application:",
        "f: F.",
        "(1 more entry left out to fit the token budget)",
        "",
      ].join("\n"),
    );
    assert.equal(
      renderLines([], 3),
      "(no entries)\n(3 more entries left out to fit the token budget)\n",
    );
    assert.equal(renderLines([], 0), "(no entries)\n");
  });
});

describe("estimateTokens", () => {
  test("a token per three letters or digits, one per other character; spaces and tabs free", () => {
    assert.equal(estimateTokens(""), 0);
    assert.equal(estimateTokens("abc"), 1);
    assert.equal(estimateTokens("abcd"), 2);
    assert.equal(estimateTokens("ABC def"), 2);
    assert.equal(estimateTokens("09AZaz"), 2);
    assert.equal(estimateTokens("a\tb c"), 1);
    assert.equal(estimateTokens("@[`{/:"), 6);
    assert.equal(estimateTokens("a,b\n"), 3);
    assert.equal(estimateTokens("é"), 1);
  });
});

describe("evidence", () => {
  const index = buildKeywordIndex([
    {
      id: "samtools",
      name: "samtools",
      description: "Sorts and indexes alignment files",
      tags: ["bam"],
      tasks: ["sort reads by coordinate order"],
      keywords: ["pileup"],
    },
    // The same words under another name: no hit below is a clear winner (kept whatever its
    // evidence), so each shows its own.
    {
      id: "sambamba",
      name: "sambamba",
      description: "Sorts and indexes alignment files",
      tags: ["bam"],
      tasks: ["sort reads by coordinate order"],
      keywords: ["pileup"],
    },
    { id: "echo", name: "echo", description: "Echoes back the text it is given" },
    { id: "echo2", name: "echo2", description: "Echoes back the text it is given", tags: ["x"] },
    { id: "notes", name: "notes", description: "Keep notes", keywords: ["quote samtools here"] },
  ]);
  const of = (query: string, id = "samtools") =>
    index.search(query, { limit: 10 }).find((h) => h.id === id)?.evidence ?? 0;

  test("a word counts by the best field holding it: name, then tags, tasks, description, keywords", () => {
    assert.ok(of("samtools") > of("bam"), "name over tag");
    assert.ok(of("bam") > of("coordinate"), "tag over task");
    assert.ok(of("pileup") < of("coordinate"), "keyword under task");
    // A description with neither tags nor tasks weighs like tags.
    assert.ok(of("back", "echo") > of("back", "echo2"), `${of("back", "echo")}`);
  });

  test("another entry's whole name weighs a third where it is only quoted", () => {
    assert.ok(of("samtools", "notes") < of("samtools") / 3, String(of("samtools", "notes")));
  });

  test("everyday words count a third; without a specific word in a curated field, half", () => {
    assert.ok(of("sort") < of("coordinate"), `${of("sort")} ${of("coordinate")}`);
    assert.ok(of("text", "echo") < 1, String(of("text", "echo")));
    // Two words of one example task, one of them specific, anchor it.
    assert.ok(of("coordinate order") >= 2 * of("coordinate"), String(of("coordinate order")));
  });
});
