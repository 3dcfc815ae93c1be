// The keyword index is built once per process for the same entries (issue 27): a warm
// createCatalog or a refresh that found nothing new shares the index instead of rebuilding it;
// changed entries get an index of their own, and rankings stay the same either way.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  buildKeywordIndex,
  indexedDocuments,
  sharedKeywordIndex,
} from "../../../lib/catalog/search/_keyword_index.ts";
import { createCatalog } from "../../../lib/catalog/build/catalog.ts";
import type { KeywordDocument } from "../../../lib/catalog/model/types.ts";

const docs = (extra = ""): KeywordDocument[] => [
  { id: "sort", name: "sort", description: `Sort a BAM file by coordinate${extra}` },
  { id: "index", name: "index", description: "Index a sorted BAM file", tags: ["bam"] },
];

const segment = (extra = "") => ({
  key: `test ${extra}`,
  stableKey: () => `test ${extra}`,
  documents: () => docs(extra),
});

test("the same documents are indexed once; changed documents are indexed again", () => {
  const before = indexedDocuments();
  const first = sharedKeywordIndex([segment()]);
  const again = sharedKeywordIndex([segment()]);
  assert.equal(indexedDocuments() - before, 2, "built once");
  sharedKeywordIndex([segment(" and more")]);
  assert.equal(indexedDocuments() - before, 4);
  assert.deepEqual(first.search("sort bam"), buildKeywordIndex(docs()).search("sort bam"));
  assert.deepEqual(again.search("sort bam"), first.search("sort bam"));
});

test("catalogs of the same entries rank alike with a shared index", async () => {
  const functions = docs().map((d) => ({
    name: d.name,
    description: d.description,
    tags: [...d.tags ?? []],
    handler: () => null,
  }));
  const a = await createCatalog({ functions });
  const b = await createCatalog({ functions });
  assert.deepEqual(a.rank("sort my bam"), b.rank("sort my bam"));
  assert.equal(a.rank("sort my bam")[0].entry.id, "sort");
});
