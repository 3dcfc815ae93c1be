// Private: a typo forgiven, a derivation joined. A request word of five letters or more that no
// entry holds is read as the term of an entry's name, tags, title, tasks or description one edit
// away (a letter added, dropped or changed; two neighbours swapped), the one most entries hold,
// then the first by code point: `samtool` → `samtool` of samtools is exact, `bowtei` → `bowti`;
// failing that, as the term it derives from (`rental` → `rent`, `novelist` → `novel`).

import { DESCRIPTION, type Segment } from "./_segment.ts";

/** Each segment's curated terms (fields up to the description) by first letter and length. */
const curated = new WeakMap<Segment, Map<string, string[]>>();

function termsBy(segment: Segment): Map<string, string[]> {
  let byKey = curated.get(segment);
  if (byKey) return byKey;
  byKey = new Map();
  for (const [term, list] of segment.postings) {
    let good = false;
    for (let i = 1; i < list.length; i += 4) if (list[i] <= DESCRIPTION) good = true;
    if (!good) continue;
    const key = term[0] + term.length;
    const row = byKey.get(key);
    if (row) row.push(term);
    else byKey.set(key, [term]);
  }
  curated.set(segment, byKey);
  return byKey;
}

/** Whether `a` and `b` are at most one edit apart (Damerau: a swap counts one). */
function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * Derivational endings the stemmer keeps (it joins inflections: `renting` → `rent`, not
 * `rental`): a term that ends in one is read as the catalog's term without it.
 */
const DERIVED = [
  "ation",
  "ment",
  "ness",
  "ship",
  "ance",
  "ence",
  "ity",
  "ist",
  "ism",
  "ive",
  "al",
  "er",
  "or",
  "ic",
  "ry",
  "y",
];

/** The catalog term `term` derives from (`rental` → `rent`), the one most documents hold. */
function derivedFrom(segments: readonly Segment[], term: string): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const end of DERIVED) {
    if (!term.endsWith(end) || term.length - end.length < 4) continue;
    const base = term.slice(0, -end.length);
    for (const segment of segments) {
      if (!termsBy(segment).get(base[0] + base.length)?.includes(base)) continue;
      const count = segment.postings.get(base)!.length;
      if (count > bestCount || (count === bestCount && best !== undefined && base < best)) {
        best = base;
        bestCount = count;
      }
    }
  }
  return best;
}

/**
 * The term one edit from `term` that the most documents of `segments` hold, if there is one; else
 * the term it derives from (`rental` → `rent`).
 */
export function fuzzyTerms(segments: readonly Segment[], term: string): string | undefined {
  return oneEditFrom(segments, term) ?? derivedFrom(segments, term);
}

function oneEditFrom(segments: readonly Segment[], term: string): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const segment of segments) {
    const byKey = termsBy(segment);
    for (const length of [term.length - 1, term.length, term.length + 1]) {
      for (const candidate of byKey.get(term[0] + length) ?? []) {
        if (!oneEdit(term, candidate)) continue;
        const count = segment.postings.get(candidate)!.length;
        if (count > bestCount || (count === bestCount && best !== undefined && candidate < best)) {
          best = candidate;
          bestCount = count;
        }
      }
    }
  }
  return best;
}
