// Private: which consecutive words of a request are one concept in this catalog, read from the
// postings of the keyword index (no table: the catalog's own lines say it).

import type { QueryTerm } from "./_query.ts";

/** The rarer word shares a line with the other in at least this share of the entries holding it. */
const CONCEPT = 0.8;

/**
 * Consecutive words of the request that are one concept in this catalog: the rarer is written on
 * one line with the other in at least CONCEPT of the entries holding it ("Oxford Nanopore",
 * "paired end"). An entry holding both counts the lesser of the two at a share (PHRASE in
 * _keyword_index.ts), so one concept of two words does not outweigh two concepts: minimap2's
 * "map" and "nanopore" over porechop's "Oxford Nanopore" in "map Oxford Nanopore reads to the
 * reference". Pairs of term indices; `lists` are the terms' postings per segment (doc, field,
 * line, tf, as _segment.ts writes them).
 */
export function conceptPairs(
  terms: readonly QueryTerm[],
  lists: ReadonlyArray<ReadonlyArray<number[] | undefined>>,
  dfs: readonly number[],
  weights: readonly number[],
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let last = -1;
  terms.forEach((q, t) => {
    if (q.joined) return;
    const prev = last;
    last = t;
    if (prev < 0 || weights[t] !== 1 || weights[prev] !== 1) return;
    if (dfs[t] < 2 || dfs[prev] < 2) return;
    if (!WORDLIKE.has(q.shape) || !WORDLIKE.has(terms[prev].shape)) return;
    const [rare, common] = dfs[t] <= dfs[prev] ? [t, prev] : [prev, t];
    // The rarer term's lines (its postings are the fewer), then the other term's postings
    // checked against them: the rarer's entries that share a line with it.
    const together = new Set<number>();
    lists[rare].forEach((list, s) => {
      const other = lists[common][s];
      if (!list || !other) return;
      const lines = new Set<number>();
      for (let i = 0; i < list.length; i += 4) lines.add(lineKey(list, i));
      for (let i = 0; i < other.length; i += 4) {
        if (lines.has(lineKey(other, i))) together.add(s * 2 ** 24 + other[i]);
      }
    });
    if (together.size >= CONCEPT * dfs[rare]) out.push([prev, t]);
  });
  return out;
}

/** A posting's document, field and line as one number (documents of one segment, < 2^24). */
function lineKey(list: readonly number[], i: number): number {
  return (list[i] * 8 + list[i + 1]) * 2 ** 20 + list[i + 2];
}

/** Shapes of words that can be one concept together (not identifiers, file types, acronyms). */
const WORDLIKE = new Set(["word", "product"]);
