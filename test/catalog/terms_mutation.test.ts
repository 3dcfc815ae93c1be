// The catalog's text rules, unit by unit, where the first mutation run of `catalog` found them
// held only through rankings (issue 19): how words become search terms (tokens and their parts,
// the suffix stripper, stop words, numbers, genomic regions), how the listing is laid out (groups,
// server lines, tags, a remote skill's source, the omission note), the token estimate, and the
// evidence a document holds for a query.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeTerm, stem, tokenize } from "../../lib/catalog/_terms.ts";
import { entryLine, renderLines } from "../../lib/catalog/_render.ts";
import { estimateTokens } from "../../lib/catalog/tokens.ts";
import { evidence, evidenceFields, queryTerms } from "../../lib/catalog/_evidence.ts";
import type { CatalogEntry } from "../../lib/catalog/types.ts";

describe("stem", () => {
  // Each pair: a word, and the term it is indexed as.
  const STEMS: Array<[string, string]> = [
    ["bam", "bam"], // three letters or fewer: as they are
    ["hg38", "hg38"], // digits: as it is
    ["sorts", "sort"],
    ["sorting", "sort"],
    ["sorted", "sort"],
    ["reads", "read"],
    ["queries", "query"],
    ["ies", "ies"],
    ["indexes", "index"],
    ["passes", "pass"],
    ["boxes", "box"],
    ["matches", "match"],
    ["brushes", "brush"],
    ["class", "class"], // -ss, -us, -is keep their s
    ["status", "status"],
    ["analysis", "analysis"],
    ["alignment", "align"],
    ["alignments", "align"],
    ["payment", "payment"], // -ment only past seven letters
    ["shipment", "ship"],
    ["agreements", "agre"], // agreement → agree → final e dropped
    ["normalise", "normaliz"],
    ["normalized", "normaliz"],
    ["normalizes", "normaliz"],
    ["recalibration", "recalibrat"],
    ["recalibrations", "recalibrat"],
    ["organization", "organiz"],
    ["organisations", "organiz"],
    ["station", "station"], // too short before -ation
    ["running", "run"], // doubled consonant undone
    ["mapped", "map"],
    ["filling", "fill"], // but not ll, ss, zz
    ["passing", "pass"],
    ["buzzing", "buzz"],
    ["fixed", "fix"],
    ["bed", "bed"], // too short for -ed
    ["seed", "seed"],
    ["ring", "ring"],
    ["duplicate", "duplicat"],
    ["duplicated", "duplicat"],
    ["duplicating", "duplicat"],
    ["tree", "tree"], // four letters keep their e
    ["make", "make"],
  ];
  for (const [word, term] of STEMS) {
    test(`${word} → ${term}`, () => assert.equal(stem(word), term));
  }
});

describe("tokenize", () => {
  test("compounds whole and by part; camelCase split; separators only inside a token", () => {
    assert.deepEqual(tokenize("hisat2-build"), ["hisat2-build", "hisat2", "build"]);
    assert.deepEqual(tokenize("featureCounts"), ["featureCounts", "feature", "Counts"]);
    assert.deepEqual(tokenize("chr7:1000-2000"), ["chr7:1000-2000", "chr7", "1000", "2000"]);
    assert.deepEqual(tokenize("a.b_c/d"), ["a.b_c/d", "a", "b", "c", "d"]);
    assert.deepEqual(tokenize("-lead x--y"), ["lead", "x", "y"]);
    assert.deepEqual(tokenize("ÄpfelBaum"), ["ÄpfelBaum", "Äpfel", "Baum"]);
    assert.deepEqual(tokenize("HTTPServer"), ["HTTPServer"]);
    assert.deepEqual(tokenize("sort, then index."), ["sort", "then", "index"]);
    // Memoised: the same token twice gives equal, separate lists.
    const first = tokenize("hisat2-build");
    first.push("x");
    assert.deepEqual(tokenize("hisat2-build"), ["hisat2-build", "hisat2", "build"]);
  });
});

describe("normalizeTerm", () => {
  test("stop words and bare numbers index nothing; regions also index `region`", () => {
    for (const term of ["The", "files", "1,000", "3.5", "42"]) {
      assert.equal(normalizeTerm(term), null, term);
    }
    assert.deepEqual(normalizeTerm("chr7:1000-2000"), ["chr7:1000-2000", "region"]);
    assert.deepEqual(normalizeTerm("1:100,000-200,000"), ["1:100,000-200,000", "region"]);
    assert.deepEqual(normalizeTerm("X7:1-2"), ["x7:1-2", "region"]);
    assert.equal(normalizeTerm("chr7:a-2"), "chr7:a-2");
    assert.equal(normalizeTerm("Sorting"), "sort");
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
  const samtools = evidenceFields({
    id: "samtools",
    name: "samtools",
    description: "Sorts and indexes alignment files",
    tags: ["bam"],
    tasks: ["sort reads by coordinate order"],
    keywords: ["pileup"],
  });
  const echo = evidenceFields({
    id: "echo",
    name: "echo",
    description: "Echoes back the text it is given",
  });
  const of = (fields: typeof samtools, query: string) => evidence(fields, queryTerms(query));

  test("by the best field holding each word: name 3, tag 2, task 1.5, description 1, keyword 0.5", () => {
    assert.equal(of(samtools, "samtools"), 3);
    assert.equal(of(samtools, "bam"), 2);
    assert.equal(of(samtools, "samtools bam pileup"), 5.5);
    // A description with neither tags nor tasks weighs like tags.
    assert.equal(of(echo, "back"), 2);
    assert.equal(of(echo, "samtools"), 0);
  });

  test("everyday words count a third; without a specific word in a curated field, half", () => {
    // "sort": task 1.5 (over description 1), everyday: 0.5, not anchored: 0.25.
    assert.equal(of(samtools, "sort"), 0.25);
    // "alignment": description 1, everyday: 1/3, not anchored: 0.17 (rounded).
    assert.equal(of(samtools, "alignment"), 0.17);
    assert.equal(of(echo, "text"), 0.33);
    // A task word alone, or a keyword alone, is not anchored.
    assert.equal(of(samtools, "coordinate"), 0.75);
    assert.equal(of(samtools, "pileup"), 0.25);
    // Two words of one example task, one of them specific, anchor it.
    assert.equal(of(samtools, "coordinate order"), 2);
    // Two everyday words of one task do not.
    assert.equal(of(samtools, "sort order"), 0.5);
  });
});
