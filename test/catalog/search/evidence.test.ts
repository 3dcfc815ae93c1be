// Evidence: how much a keyword hit says that an entry fits a query (lib/catalog/search/_evidence.ts,
// through buildKeywordIndex and createKeywordIndex): a word counts by the best field holding it,
// everyday words a third wherever they stand, a quoted whole name a third, a description like
// tags only without tags and tasks, one-letter query words nothing, a query lowercased (not
// case-folded), an example task anchoring only with two query words in it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createKeywordIndex, type KeywordDocument } from "../../../lib/catalog/mod.ts";
import { buildKeywordIndex } from "../../../lib/catalog/search/_keyword_index.ts";

/** The evidence of document `id` for `query`, in an index of `docs`. */
async function evidenceOf(docs: KeywordDocument[], query: string, id: string) {
  const hit = (await createKeywordIndex(docs)).search(query).find((h) => h.id === id);
  assert.ok(hit, `"${id}" is a hit of "${query}"`);
  return hit.evidence;
}

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

  test("everyday words count a third wherever they stand in the list; a specific one in full", async () => {
    const docs = ["compare", "convert", "word", "write", "frobnicate"].map((name) => ({
      id: name,
      name,
      description: "Keeps the ledger",
    }));
    // A name word weighs 3: a third of it, halved with no specific word to anchor it, plus a
    // third of the bonus for naming the entry whole (1).
    for (const everyday of ["compare", "convert", "word", "write"]) {
      assert.equal(await evidenceOf(docs, everyday, everyday), 0.83, everyday);
    }
    assert.equal(await evidenceOf(docs, "frobnicate", "frobnicate"), 4);
  });

  test("an entry holds only the words it was given: no title, tags, tasks or keywords invented", async () => {
    const docs = [{
      id: "implants",
      name: "implant-catalog",
      description: "Lists knee implants and their sizes",
    }];
    // "knee" in the description of an entry with nothing else weighs like a tag (2), "implant" in
    // the name 3; "Stryker" is nowhere in the entry.
    assert.equal(await evidenceOf(docs, "Stryker knee implant", "implants"), 5);
  });

  test("a description weighs like tags only for an entry with neither tags nor tasks", async () => {
    const docs = [
      { id: "tagged", name: "alpha", description: "Frobnicates widgets", tags: ["gadgets"] },
      { id: "tasked", name: "beta", description: "Frobnicates widgets", tasks: ["polish gadgets"] },
      { id: "bare", name: "gamma", description: "Frobnicates widgets" },
    ];
    // 1.5 and 2 times the word's specificity (held by all three: 0.57).
    assert.equal(await evidenceOf(docs, "frobnicate", "tagged"), 0.85);
    assert.equal(await evidenceOf(docs, "frobnicate", "tasked"), 0.85);
    assert.equal(await evidenceOf(docs, "frobnicate", "bare"), 1.14);
  });

  test("a one-letter query word says nothing; a two-letter one counts", async () => {
    const docs = [
      { id: "ggplot", name: "ggplot", description: "Draws charts", tags: ["r", "plot"] },
      // A two-letter word counts whole; as a part of a compound (qc-report) it no longer does
      // (issue 47: "sci-fi" found ko-fi by "fi").
      { id: "qc", name: "qc", description: "Summarises read quality" },
    ];
    assert.equal(await evidenceOf(docs, "plot with r", "ggplot"), 2, "the tag plot only");
    assert.equal(await evidenceOf(docs, "qc", "qc"), 4, "qc is the whole name (3 + 1)");
  });

  test("a query is lowercased, not case-folded: Straße is straße, not strasse", async () => {
    const docs = [{ id: "street", name: "straße", description: "Finds a street on the map" }];
    assert.equal(await evidenceOf(docs, "Straße", "street"), 4); // the whole name: 3 + 1
  });

  test("an example task anchors only when it holds two of the query's words", async () => {
    const docs = [{
      id: "zeta",
      name: "zeta",
      description: "Keeps the ledger",
      tasks: ["frobnicate widgets"],
      keywords: ["frobnicate widgets"],
    }];
    // "frobnicate" is in a task only (1.5): halved, as "gizmos" is not in that task too.
    assert.equal(await evidenceOf(docs, "frobnicate gizmos", "zeta"), 0.75);
    assert.equal(await evidenceOf(docs, "frobnicate widgets", "zeta"), 3);
  });
});
