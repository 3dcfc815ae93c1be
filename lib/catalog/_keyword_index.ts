// Private: the keyword index on minisearch (BM25+). Loaded lazily by keyword.ts and the catalog.

import { corpusOf, CorpusSearch } from "./_corpus_search.ts";
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

/** One segment's indexes: the documents, and each keyword line on its own. */
interface Segment {
  search: CorpusSearch<Row>;
  lines: CorpusSearch<Line>;
  byId: Map<string, KeywordDocument>;
  /** Evidence fields, built on a document's first hit. */
  fields: Map<string, EvidenceFields>;
}

let documentsIndexed = 0;

/** How many documents this process has indexed (a test seam: index work, not index reuse). */
export function indexedDocuments(): number {
  return documentsIndexed;
}

const SEARCH_OPTIONS = {
  idField: "id",
  fields: [...FIELDS],
  tokenize,
  processTerm: normalizeTerm,
  searchOptions: { ...SEARCH, boost: BOOST },
};
const LINE_OPTIONS = {
  idField: "id",
  fields: ["text"],
  storeFields: ["owner"],
  tokenize,
  processTerm: normalizeTerm,
  searchOptions: SEARCH,
};

type Line = { id: number; owner: string; text: string };

function buildSegment(documents: readonly KeywordDocument[]): Segment {
  documentsIndexed += documents.length;
  const search = new CorpusSearch<Row>(SEARCH_OPTIONS);
  const lines = new CorpusSearch<Line>(LINE_OPTIONS);
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
  return segmentOf(search, lines, documents);
}

// Evidence fields are built on a document's first hit: most documents of a large catalog never
// rank near the top, and tokenizing them all again would double the build.
function segmentOf(
  search: CorpusSearch<Row>,
  lines: CorpusSearch<Line>,
  documents: readonly KeywordDocument[],
): Segment {
  return { search, lines, byId: new Map(documents.map((d) => [d.id, d])), fields: new Map() };
}

/** A segment as saved between processes: its two minisearch indexes, in minisearch's form. */
export interface SavedSegment {
  search: unknown;
  lines: unknown;
}

/** The saved form of the segment built under `key` in this process, if there is one. */
export function savedSegment(key: string): SavedSegment | undefined {
  const segment = built.get(key);
  return segment && { search: segment.search.toJSON(), lines: segment.lines.toJSON() };
}

/** Whether this process holds the segment of `key` (nothing to load). */
export function hasSegment(key: string): boolean {
  return built.has(key);
}

/**
 * Take a saved segment for `key` (documents `documents`) instead of indexing them. Refused
 * (`false`, nothing kept) when it does not load or does not hold exactly these documents and
 * their keyword lines: the caller then indexes them.
 */
export function adoptSegment(
  key: string,
  documents: readonly KeywordDocument[],
  saved: SavedSegment,
): boolean {
  try {
    const search = CorpusSearch.fromJS<Row>(saved.search, SEARCH_OPTIONS);
    const lines = CorpusSearch.fromJS<Line>(saved.lines, LINE_OPTIONS);
    const lineCount = documents.reduce((n, d) => n + (d.keywords?.length ?? 0), 0);
    if (
      search.documentCount !== documents.length || lines.documentCount !== lineCount ||
      !documents.every((d) => search.has(d.id))
    ) return false;
    keep(key, segmentOf(search, lines, documents));
    return true;
  } catch {
    return false;
  }
}

/**
 * One index over `segments` (document ids unique across them): each segment is searched with
 * the counts of all of them (see _corpus_search.ts), so the ranking is that of one index of
 * every document, while a changed segment is the only one indexed again.
 */
function combine(segments: readonly Segment[]): KeywordIndex {
  const several = segments.length > 1;
  const corpus = several ? corpusOf(segments.map((s) => s.search)) : undefined;
  const lineCorpus = several ? corpusOf(segments.map((s) => s.lines)) : undefined;
  const fieldsOf = (id: string) => {
    for (const segment of segments) {
      const doc = segment.byId.get(id);
      if (!doc) continue;
      let f = segment.fields.get(id);
      if (!f) segment.fields.set(id, f = evidenceFields(doc));
      return f;
    }
    throw new Error(`no document "${id}"`);
  };
  return {
    size: segments.reduce((n, s) => n + s.byId.size, 0),
    search(query, options = {}) {
      const limit = options.limit ?? 10;
      const scores = new Map<string, number>();
      const best = new Map<string, number>();
      for (const segment of segments) {
        segment.search.corpus = corpus;
        segment.lines.corpus = lineCorpus;
        try {
          for (const hit of segment.search.search(query)) scores.set(String(hit.id), hit.score);
          for (const hit of segment.lines.search(query)) {
            const owner = hit.owner as string;
            best.set(owner, Math.max(best.get(owner) ?? 0, hit.score));
          }
        } finally {
          segment.search.corpus = undefined;
          segment.lines.corpus = undefined;
        }
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

/** Build the index (synchronous once minisearch is loaded). */
export function buildKeywordIndex(documents: readonly KeywordDocument[]): KeywordIndex {
  return combine([buildSegment(documents)]);
}

/** A part of a catalog's documents (one source's), under a key that names its documents. */
export interface IndexSegment {
  /** Equal keys mean equal documents (ids included), within this process. */
  key: string;
  /** The same across processes: what the documents are made of, spelt out. */
  stableKey(): string;
  documents(): readonly KeywordDocument[];
}

/** Segments built in this process, by key; the most recently used last. */
const built = new Map<string, Segment>();
/** How many segments a process keeps (a few catalog versions of a few dozen sources). */
const KEEP = 256;

/**
 * The index of `segments`' documents, each segment indexed once per process for the same key: a
 * warm `createCatalog` or a `refresh()` that found nothing new indexes nothing, and a refresh
 * after one server changed indexes that server's entries only. Rankings are those of one index
 * of all the documents.
 */
export function sharedKeywordIndex(segments: readonly IndexSegment[]): KeywordIndex {
  return combine(segments.map(({ key, documents }) => {
    const segment = built.get(key) ?? buildSegment(documents());
    keep(key, segment);
    return segment;
  }));
}

/** Forget every segment built or loaded in this process (a test seam: a new process's start). */
export function forgetSegments(): void {
  built.clear();
}

/** Keep `segment` under `key` as the most recently used. */
function keep(key: string, segment: Segment): void {
  built.delete(key);
  built.set(key, segment);
  if (built.size > KEEP) built.delete(built.keys().next().value!);
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
    // A negative limit keeps none (slice would count it from the end).
    return [...scores].map(([id, score]) => ({ id, score })).sort(before).slice(
      0,
      Math.max(0, limit),
    );
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
