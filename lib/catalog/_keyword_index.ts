// Private: the keyword index on minisearch (BM25+). Loaded lazily by keyword.ts and the catalog.

import MiniSearch from "minisearch";
import { evidence, type EvidenceFields, evidenceFields, queryTerms } from "./_evidence.ts";
import { normalizeTerm, tokenize } from "./_terms.ts";
import type { KeywordDocument, KeywordIndex } from "./types.ts";

const FIELDS = ["name", "tags", "title", "description", "keywords"] as const;
const BOOST = { name: 4, tags: 3, title: 2, description: 1.5, keywords: 1 };

interface Row {
  id: string;
  name: string;
  title: string;
  description: string;
  tags: string;
  keywords: string;
}

/**
 * Weight of the best single keyword line (one example task, one concept) next to the whole
 * document: a request phrased like one worked example ("count reads per chromosome") should
 * find that skill even when another's name or tags share its words.
 */
const LINE_WEIGHT = 1;

const SEARCH = {
  prefix: (term: string) => term.length >= 5,
  fuzzy: (term: string) => (term.length >= 7 ? 1 : false),
  weights: { prefix: 0.4, fuzzy: 0.2 },
  combineWith: "OR",
} as const;

/** Build the index (synchronous once minisearch is loaded). */
export function buildKeywordIndex(documents: readonly KeywordDocument[]): KeywordIndex {
  const search = new MiniSearch<Row>({
    idField: "id",
    fields: [...FIELDS],
    tokenize,
    processTerm: normalizeTerm,
    searchOptions: { ...SEARCH, boost: BOOST },
  });
  const lines = new MiniSearch<{ id: number; owner: string; text: string }>({
    idField: "id",
    fields: ["text"],
    storeFields: ["owner"],
    tokenize,
    processTerm: normalizeTerm,
    searchOptions: SEARCH,
  });
  let n = 0;
  lines.addAll(
    documents.flatMap((d) => (d.keywords ?? []).map((text) => ({ id: n++, owner: d.id, text }))),
  );
  search.addAll(documents.map((d) => ({
    id: d.id,
    name: d.name,
    title: d.title ?? "",
    description: d.description,
    tags: (d.tags ?? []).join(" "),
    keywords: (d.keywords ?? []).join("\n"),
  })));
  // Evidence fields are built on a document's first hit: most documents of a large catalog never
  // rank near the top, and tokenizing them all again would double the build.
  const byId = new Map(documents.map((d) => [d.id, d]));
  const fields = new Map<string, EvidenceFields>();
  const fieldsOf = (id: string) => {
    let f = fields.get(id);
    if (!f) fields.set(id, f = evidenceFields(byId.get(id)!));
    return f;
  };
  return {
    size: documents.length,
    search(query, options = {}) {
      const limit = options.limit ?? 10;
      const scores = new Map<string, number>();
      for (const hit of search.search(query)) scores.set(String(hit.id), hit.score);
      const best = new Map<string, number>();
      for (const hit of lines.search(query)) {
        const owner = hit.owner as string;
        best.set(owner, Math.max(best.get(owner) ?? 0, hit.score));
      }
      for (const [owner, score] of best) {
        scores.set(owner, (scores.get(owner) ?? 0) + LINE_WEIGHT * score);
      }
      const terms = queryTerms(query);
      return top(scores, limit).map((hit) => ({
        ...hit,
        evidence: evidence(fieldsOf(hit.id), terms),
      }));
    },
  };
}

/** Indexes built in this process, by their documents; the most recently used last. */
const built = new Map<string, KeywordIndex>();
/** How many indexes a process keeps (a few catalog versions: warm builds and refreshes). */
const KEEP = 4;

/**
 * The index of `documents`, built once per process for the same documents: an index is only
 * searched once built, so catalogs of the same entries (a warm `createCatalog`, a `refresh()` that
 * found nothing new) share it instead of tokenizing and inserting every entry again.
 */
export function sharedKeywordIndex(documents: readonly KeywordDocument[]): KeywordIndex {
  const key = JSON.stringify(documents);
  let index = built.get(key);
  if (index) built.delete(key);
  else index = buildKeywordIndex(documents);
  built.set(key, index);
  if (built.size > KEEP) built.delete(built.keys().next().value!);
  return index;
}

/** Higher score first, then id: the one order of every ranking. */
function before(a: Hit, b: Hit): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface Hit {
  id: string;
  score: number;
}

/**
 * The first `limit` of `scores` in {@link before} order, without sorting them all: a query's
 * common words match thousands of entries, of which a caller wants ten.
 */
function top(scores: ReadonlyMap<string, number>, limit: number): Hit[] {
  if (!Number.isInteger(limit) || limit <= 0 || limit >= scores.size / 4) {
    return [...scores].map(([id, score]) => ({ id, score })).sort(before).slice(0, limit);
  }
  const out: Hit[] = [];
  for (const [id, score] of scores) {
    if (out.length === limit) {
      const last = out[limit - 1];
      if (score < last.score || (score === last.score && id > last.id)) continue;
      out.pop();
    }
    const hit = { id, score };
    let i = out.length;
    while (i > 0 && before(hit, out[i - 1]) < 0) i--;
    out.splice(i, 0, hit);
  }
  return out;
}
