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
    let together = 0;
    lists[rare].forEach((list, s) => {
      const other = lists[common][s];
      if (!list || !other) return;
      const lines = new Map<number, Set<number>>();
      for (let i = 0; i < other.length; i += 4) {
        let set = lines.get(other[i]);
        if (!set) lines.set(other[i], set = new Set());
        set.add(other[i + 1] * 1e6 + other[i + 2]);
      }
      let counted = -1;
      for (let i = 0; i < list.length; i += 4) {
        if (list[i] === counted) continue;
        if (lines.get(list[i])?.has(list[i + 1] * 1e6 + list[i + 2])) {
          (together++, counted = list[i]);
        }
      }
    });
    if (together >= CONCEPT * dfs[rare]) out.push([prev, t]);
  });
  return out;
}

/** Shapes of words that can be one concept together (not identifiers, file types, acronyms). */
const WORDLIKE = new Set(["word", "product"]);
