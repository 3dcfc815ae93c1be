// The keyword index's edges the fourth mutation run of `catalog` found loosely held (issue 19):
// field boosts, typo matching, a title of its own, fields a document leaves out, the weight of one
// worked example (a keyword line holding the request's words), ties ranked by id whatever
// the limit (the first `limit` are always those of the whole ranking), and a saved segment taken
// only when it holds exactly the documents and their keyword lines, never over a segment this
// process holds, and never saved once the process no longer holds it. (Since issue 47 the index is
// BM25F of its own: prefix matching and "a word that is a whole keyword line weighs as a whole
// line" were minisearch's and are gone; a field's length is the sum of its lines.) Rankings through the
// public `createKeywordIndex`; segments through the index store's own calls, in memory storage.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createMemoryStorage } from "../../lib/mod.ts";
import { createKeywordIndex } from "../../lib/catalog/mod.ts";
import {
  adoptSegment,
  buildKeywordIndex,
  hasSegment,
  indexedDocuments,
  type SavedSegment,
  savedSegment,
  sharedKeywordIndex,
} from "../../lib/catalog/search/_keyword_index.ts";
import { loadSegments, saveSegments } from "../../lib/catalog/build/_index_store.ts";
import type { KeywordDocument } from "../../lib/catalog/model/types.ts";

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

describe("saved segments", () => {
  const documents: KeywordDocument[] = [
    { id: "a", name: "alpha", description: "Sorts BAM files", keywords: ["sort a bam file"] },
    { id: "b", name: "beta", description: "Counts reads per gene" },
  ];
  /** The saved form of an index of `docs`, as it comes back from a storage. */
  const saveOf = (docs: KeywordDocument[], key: string): SavedSegment => {
    sharedKeywordIndex([{ key, stableKey: () => key, documents: () => docs }]);
    return JSON.parse(JSON.stringify(savedSegment(key)));
  };

  test("a save is taken only when it holds exactly these documents and their keyword lines", () => {
    const good = saveOf(documents, "kim: the same documents");
    assert.equal(adoptSegment("kim: adopted", documents, good), true);
    assert.equal(hasSegment("kim: adopted"), true);
    const before = indexedDocuments();
    const adopted = sharedKeywordIndex([{
      key: "kim: adopted",
      stableKey: () => "kim: adopted",
      documents: () => documents,
    }]);
    assert.equal(indexedDocuments(), before, "loaded, nothing indexed");
    assert.deepEqual(adopted.search("sort bam"), buildKeywordIndex(documents).search("sort bam"));

    const refused: Array<[string, SavedSegment]> = [
      // Every document, and one more (without keyword lines: the same count of lines).
      ["one more", saveOf([...documents, { id: "c", name: "c", description: "More" }], "kim: +1")],
      // The same documents, another count of keyword lines.
      [
        "other lines",
        saveOf([{ ...documents[0], keywords: ["sort", "index"] }, documents[1]], "kim: l"),
      ],
      // As many documents and lines, one of another id.
      ["another id", saveOf([documents[0], { ...documents[1], id: "x" }], "kim: x")],
      // Not an index at all.
      ["not an index", { search: 1, lines: 2 } as unknown as SavedSegment],
    ];
    for (const [what, saved] of refused) {
      const key = `kim: refused, ${what}`;
      assert.equal(adoptSegment(key, documents, saved), false, what);
      assert.equal(hasSegment(key), false, what);
    }
  });

  test("a segment this process holds is not replaced by its save", async () => {
    const segment = { key: "kim: held", stableKey: () => "kim: held", documents: () => documents };
    const first = sharedKeywordIndex([segment]).search("sorts bam");
    assert.equal(first[0].id, "a");
    const storage = createMemoryStorage();
    const [unsaved] = await loadSegments([segment], storage);
    // A save under that key with the same ids and counts, but other words (descriptions swapped).
    const other = saveOf([
      { ...documents[0], description: documents[1].description },
      { ...documents[1], description: documents[0].description },
    ], "kim: swapped");
    await storage.set(unsaved.key, JSON.stringify(other));
    assert.deepEqual(await loadSegments([segment], storage), [], "counts as saved");
    assert.deepEqual(sharedKeywordIndex([segment]).search("sorts bam"), first);
  });

  test("a segment the process no longer holds has no saved form and is not saved", async () => {
    const segment = {
      key: "kim: never built",
      stableKey: () => "kim: never built",
      documents: () => documents,
    };
    assert.equal(savedSegment(segment.key), undefined);
    const storage = createMemoryStorage();
    await saveSegments([{ segment, key: `keyword-index/${"0".repeat(64)}` }], storage);
    assert.deepEqual(await storage.keys(""), []);
  });
});
