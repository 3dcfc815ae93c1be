// Private: keyword ranking of served skills, with the library's one ranker (createKeywordIndex:
// BM25+ over name, tags, description and each skill's concepts and example tasks). The index is
// built once per snapshot of the served skills.

import { createKeywordIndex } from "../catalog/search/keyword.ts";
import type { KeywordIndex } from "../catalog/model/types.ts";
import type { ServedEntry, Snapshot } from "./_catalog.ts";

/** One ranked skill. */
export interface SearchHit {
  name: string;
  description: string;
  tags: string[];
  score: number;
}

const indexes = new WeakMap<Snapshot, Promise<KeywordIndex>>();

function indexOf(snapshot: Snapshot): Promise<KeywordIndex> {
  let index = indexes.get(snapshot);
  if (index === undefined) {
    index = createKeywordIndex([...snapshot.entries.values()].map((entry: ServedEntry) => ({
      id: entry.name,
      name: entry.name,
      description: entry.description,
      tags: entry.tags,
      keywords: entry.keywords,
    })));
    indexes.set(snapshot, index);
  }
  return index;
}

/** The skills of `snapshot` best matching `query`, at most `limit`; ties sort by name. */
export async function searchSkills(
  snapshot: Snapshot,
  query: string,
  limit: number,
): Promise<SearchHit[]> {
  const hits = (await indexOf(snapshot)).search(query, { limit });
  return hits.flatMap(({ id, score }) => {
    const entry = snapshot.entries.get(id);
    return entry
      ? [{ name: entry.name, description: entry.description, tags: entry.tags, score }]
      : [];
  });
}
