// Private: the keyword index: segments (one source's documents each, see _segment.ts) searched in
// one pass. A query's terms are looked up in every segment's postings and scored with BM25F over
// the counts of all the segments together (document frequency, field lengths), so the ranking is
// that of one index of every document, and a changed source is the only segment indexed again.
// Each hit carries its evidence (see _evidence.ts).
// Long because: BM25F over every segment in one pass (combine) with its tuned weights beside it,
// and the process-wide cache of segments that saved ones are adopted into.

import { againstOf, evidence, MARGIN, type Match } from "./_evidence.ts";
import { analyzeQuery, type QueryTerm } from "./_query.ts";
import {
  buildSegment,
  DESCRIPTION,
  FIELDS,
  indexedDocuments,
  KEYWORD,
  loadSegment,
  NAME,
  type SavedSegment,
  saveSegment,
  type Segment,
  TAG,
  TASK,
} from "./_segment.ts";
import { conceptPairs } from "./_concepts.ts";
import { fuzzyTerms } from "./_fuzzy.ts";
import { termsOf } from "./_terms.ts";
import type { KeywordDocument, KeywordIndex } from "../model/types.ts";

export { indexedDocuments, type SavedSegment };

/** BM25F: weight and length normalisation of each field; saturation. Other words (concepts: long
 * prose that names other tools) weigh least; a description weighs more than an example task. */
const WEIGHT = [5, 3, 2, 3, 0.3];
const B = [0.3, 0.5, 0.5, 0.75, 0.75];
const K1 = 1.2;
/** A term that is another document's whole name weighs this share where it is only quoted. */
const QUOTED = 0.35;
/**
 * A document that quotes a term naming another document, and is named by none of the query's
 * terms, reads the request's other words in its prose at this share: they are the quoted tool's
 * command line (`minimap2 -ax map-ont ref.fa reads.fq` in racon's examples), not its own.
 */
const QUOTER = 0.35;
/** A document whose other words (body, parameters) are this many terms says more than a line. */
const RICH_BODY = 40;
/** A document named by a query term gets this many IDFs more. */
const NAMED = 1.5;
/** The best keyword line holding two terms or more adds this share of their IDFs. */
const LINE = 0.5;
/**
 * An example task line's bonus grows by this share times the part of the line the request holds
 * ("count reads per chromosome" holds three of the four terms of "Count reads per chromosome").
 */
const TASK_COVER = 0.5;
/** A term found only by a typo or a related form weighs this share. */
const FUZZY = 0.5;
/** Most words of one request read as typos (a long request is mostly words no entry holds). */
const MAX_GUESSES = 32;
/** Specificity of a term: this share, plus the rest times its IDF over the largest. */
const SPEC_BASE = 0.5;
/** An entry holding both words of one concept (see _concepts.ts) counts the lesser at this share. */
const PHRASE = 0.3;

interface Acc {
  segment: number;
  doc: number;
  score: number;
  matches: Match[];
  /** line key (field * 1e6 + line) → terms it holds */
  lines?: Map<number, number[]>;
  ownName: boolean;
  /** What each term added to the score (term → share), for terms of one concept. */
  adds?: Map<number, number>;
}

/** One index over `segments` (document ids unique across them). */
function combine(segments: readonly Segment[]): KeywordIndex {
  const size = segments.reduce((n, s) => n + s.ids.length, 0);
  const avg = new Array(FIELDS).fill(0);
  for (const s of segments) s.lengths.forEach((l, i) => (avg[i % FIELDS] += l));
  for (let f = 0; f < FIELDS; f++) avg[f] = size > 0 ? avg[f] / size || 1 : 1;
  const idfOf = (df: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));
  const idfMax = idfOf(1);
  const order = before(segments);
  return {
    size,
    search(query, options = {}) {
      const limit = options.limit ?? 10;
      if (typeof query !== "string" || size === 0) return [];
      const terms: QueryTerm[] = [];
      const weights: number[] = [];
      const lists: Array<Array<number[] | undefined>> = [];
      const dfs: number[] = [];
      const named: boolean[] = [];
      const curated: boolean[] = [];
      let guesses = 0;
      for (const q of analyzeQuery(query)) {
        let found = postingsOf(segments, q.term);
        let weight = 1;
        if (
          found.df === 0 && !q.joined && q.shape === "word" && q.term.length >= 5 &&
          guesses++ < MAX_GUESSES
        ) {
          const near = fuzzyTerms(segments, q.term);
          if (near) {
            found = postingsOf(segments, near);
            weight = FUZZY;
          }
        }
        if (found.df === 0 && q.joined) continue;
        terms.push(q);
        weights.push(weight);
        lists.push(found.lists);
        dfs.push(found.df);
        named.push(segments.some((s) => s.names.has(q.term)));
        curated.push(found.curated);
      }
      // Documents named by a query term, and those that only quote such a term (see QUOTER).
      const owned = new Set<number>();
      const quoters = new Set<number>();
      terms.forEach((q, t) => {
        if (!named[t]) return;
        segments.forEach((segment, s) => {
          for (const doc of segment.names.get(q.term) ?? []) owned.add(s * 2 ** 24 + doc);
        });
      });
      terms.forEach((_, t) => {
        if (!named[t]) return;
        lists[t].forEach((list, s) => {
          for (let i = 0; list && i < list.length; i += 4) {
            const key = s * 2 ** 24 + list[i];
            if (!owned.has(key)) quoters.add(key);
          }
        });
      });
      const concepts = conceptPairs(terms, lists, dfs, weights);
      const paired = new Set(concepts.flat());
      const acc = new Map<number, Acc>();
      terms.forEach((q, t) => {
        if (dfs[t] === 0) return;
        const idf = idfOf(dfs[t]) * weights[t];
        lists[t].forEach((list, s) => {
          if (!list) return;
          const segment = segments[s];
          const owners = named[t] ? segment.names.get(q.term) : undefined;
          for (let i = 0; i < list.length;) {
            const doc = list[i];
            let tf = 0;
            let best = FIELDS;
            const lines: number[] = [];
            const owner = owners?.includes(doc) ?? false;
            const quoted = named[t] && !owner;
            const key = s * 2 ** 24 + doc;
            const quoter = quoters.has(key);
            for (; i < list.length && list[i] === doc; i += 4) {
              const field = list[i + 1];
              // A file name of the request is its type: not the file names of a skill's examples
              // (a tool's other words are its parameters: "Path to the BAM file" is a type).
              if (field === KEYWORD && q.shape === "file" && !segment.described[doc]) continue;
              const length = segment.lengths[doc * FIELDS + field];
              const norm = 1 - B[field] + B[field] * length / avg[field];
              const share = quoted && field !== NAME
                ? QUOTED
                : quoter && field === KEYWORD
                ? QUOTER
                : 1;
              tf += share * WEIGHT[field] * list[i + 3] / norm;
              best = Math.min(best, field);
              if (field >= 2) lines.push(field * 1e6 + list[i + 2]);
            }
            if (best === FIELDS) continue;
            let a = acc.get(key);
            if (!a) acc.set(key, a = { segment: s, doc, score: 0, matches: [], ownName: false });
            const add = idf * tf * (K1 + 1) / (tf + K1) + (owner ? NAMED * idf : 0);
            a.score += add;
            if (owner) a.ownName = true;
            if (paired.has(t)) (a.adds ??= new Map()).set(t, add);
            a.matches.push({
              term: t,
              field: best,
              weight: weights[t],
              quoted: quoted && best !== NAME,
            });
            for (const l of lines) {
              a.lines ??= new Map();
              const row = a.lines.get(l);
              if (row) row.push(t);
              else a.lines.set(l, [t]);
            }
          }
        });
      });
      if (concepts.length > 0) {
        for (const a of acc.values()) {
          for (const [x, y] of concepts) {
            const ax = a.adds?.get(x), ay = a.adds?.get(y);
            if (ax !== undefined && ay !== undefined) a.score -= (1 - PHRASE) * Math.min(ax, ay);
          }
        }
      }
      const specificity = dfs.map((df, t) =>
        df === 0 ? 0 : (SPEC_BASE + (1 - SPEC_BASE) * idfOf(df) / idfMax) * weights[t]
      );
      const lineOfTwo = new Map<Acc, boolean>();
      for (const a of acc.values()) {
        let bestLine = 0;
        let two = false;
        const taskLengths = segments[a.segment].taskLengths[a.doc];
        for (const [key, row] of a.lines ?? []) {
          if (row.length < 2) continue;
          if (row.some((t) => specificity[t] >= 0.5)) two = true;
          const sum = row.reduce((s, t) => s + idfOf(dfs[t]) * weights[t], 0);
          const field = Math.floor(key / 1e6);
          const cover = field === TASK
            ? Math.min(1, row.length / (taskLengths[key % 1e6] || 1))
            : 0;
          bestLine = Math.max(bestLine, sum * (1 + TASK_COVER * cover));
        }
        a.score += LINE * bestLine;
        lineOfTwo.set(a, two);
      }
      const hits = top([...acc.values()], limit, order);
      const against = againstOf({ query: terms, specificity, named, curated });
      const asked = new Set(terms.map((q) => q.term));
      return hits.map((a, i) => {
        const segment = segments[a.segment];
        const matches = a.matches.map((m) =>
          m.field === TAG && partOfTag(segment, a.doc, terms[m.term].term, asked)
            ? { ...m, field: DESCRIPTION }
            : m
        );
        const value = evidence({
          query: terms,
          specificity,
          named,
          curated,
          matches,
          lineOfTwo: lineOfTwo.get(a)!,
          ownName: a.ownName,
          described: segment.described[a.doc],
          rich: !segment.described[a.doc] ||
            segment.lengths[a.doc * FIELDS + KEYWORD] >= RICH_BODY,
          clearWinner: i === 0 && hits.length > 1 && a.score >= MARGIN * hits[1].score,
          against,
        });
        return { id: segment.ids[a.doc], score: a.score, evidence: value };
      });
    },
  };
}

/** Per document of a segment, the terms of each of its tags (built when a query first needs them). */
const tagTerms = new WeakMap<Segment, Array<Array<Set<string>>>>();

/**
 * Whether `term` is only a part of the document's tags, with no other word of that tag asked: a
 * tag is one concept, so "function" of `functional-annotation` in "a Python function" is a word of
 * its prose, not its topic (its evidence weighs as the description's; its rank is unchanged).
 * The title is not a tag: a tool's title is its name in words.
 */
function partOfTag(segment: Segment, doc: number, term: string, asked: ReadonlySet<string>) {
  let byDoc = tagTerms.get(segment);
  if (!byDoc) tagTerms.set(segment, byDoc = []);
  const tags = byDoc[doc] ??= (segment.documents[doc].tags ?? []).map((t) => new Set(termsOf(t)));
  const holding = tags.filter((t) => t.has(term));
  return holding.length > 0 &&
    holding.every((t) => t.size > 1 && [...t].every((x) => x === term || !asked.has(x)));
}

/** The postings of `term` in each segment, and how many documents hold it. */
function postingsOf(segments: readonly Segment[], term: string) {
  let df = 0;
  let curated = false;
  const lists = segments.map((s) => {
    const list = s.postings.get(term);
    if (list) {
      let last = -1;
      for (let i = 0; i < list.length; i += 4) {
        if (list[i] !== last) (df++, last = list[i]);
        if (list[i + 1] <= DESCRIPTION) curated = true;
      }
    }
    return list;
  });
  return { df, lists, curated };
}

/** Higher score first, then id: the one order of every ranking. */
function before(segments: readonly Segment[]) {
  return (a: Acc, b: Acc) => {
    const x = segments[a.segment].ids[a.doc], y = segments[b.segment].ids[b.doc];
    return b.score - a.score || (x < y ? -1 : x > y ? 1 : 0);
  };
}

/** The first `limit` of `hits` in `order` (every hit for an infinite limit). */
function top(hits: Acc[], limit: number, order: (a: Acc, b: Acc) => number): Acc[] {
  hits.sort(order);
  return limit === Infinity ? hits : hits.slice(0, Math.max(0, Math.floor(limit) || 0));
}

/** Build the index of `documents` (synchronous). */
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

/** The saved form of the segment built under `key` in this process, if there is one. */
export function savedSegment(key: string): SavedSegment | undefined {
  const segment = built.get(key);
  return segment && saveSegment(segment);
}

/** Whether this process holds the segment of `key` (nothing to load). */
export function hasSegment(key: string): boolean {
  return built.has(key);
}

/**
 * Take a saved segment for `key` (documents `documents`) instead of indexing them. Refused
 * (`false`, nothing kept) when it does not load or does not hold exactly these documents.
 */
export function adoptSegment(
  key: string,
  documents: readonly KeywordDocument[],
  saved: unknown,
): boolean {
  const segment = loadSegment(documents, saved);
  if (segment) keep(key, segment);
  return segment !== undefined;
}

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
