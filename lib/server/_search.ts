// Private: keyword ranking of skills over their name, description and tags.

import type { CatalogEntry } from "./_catalog.ts";

/** One ranked skill. */
export interface SearchHit {
  name: string;
  description: string;
  tags: string[];
  score: number;
}

const words = (text: string): string[] =>
  text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "");

/** How well one query word matches a list of words: exact beats prefix (`sort` → `sorts`). */
function match(word: string, candidates: readonly string[], exact: number, prefix: number): number {
  if (candidates.includes(word)) return exact;
  return candidates.some((candidate) => candidate.startsWith(word)) ? prefix : 0;
}

/**
 * Rank `entries` for `query`: per query word, the name scores 10 (exact) or 6 (prefix), a tag 5
 * or 3, the description 2 or 1. Skills scoring 0 are left out; ties sort by name.
 */
export function searchSkills(
  entries: Iterable<CatalogEntry>,
  query: string,
  limit: number,
): SearchHit[] {
  const terms = [...new Set(words(query))];
  const hits: SearchHit[] = [];
  for (const entry of entries) {
    const name = words(entry.name);
    const tags = entry.tags.flatMap((tag) => [tag.toLowerCase(), ...words(tag)]);
    const description = words(entry.description);
    let score = 0;
    for (const term of terms) {
      score += match(term, [entry.name, ...name], 10, 6) + match(term, tags, 5, 3) +
        match(term, description, 2, 1);
    }
    if (score > 0) {
      hits.push({ name: entry.name, description: entry.description, tags: entry.tags, score });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  return hits.slice(0, limit);
}
