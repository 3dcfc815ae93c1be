// Private: one segment of the keyword index (one source's documents): postings of every term by
// document, field and line, field lengths, and the terms that are a document's whole name. Built
// from documents, or loaded from its saved form (see _index_store.ts).

import { nameTerms, termsOf } from "./_terms.ts";
import type { KeywordDocument } from "../model/types.ts";

/** Fields, best first: a document's name, its tags and title, example tasks, description, other words. */
export const NAME = 0, TAG = 1, TASK = 2, DESCRIPTION = 3, KEYWORD = 4;
export const FIELDS = 5;

/** A built segment. */
export interface Segment {
  ids: string[];
  documents: readonly KeywordDocument[];
  /** term → flat [doc, field, line, count, …], documents in ascending order. */
  postings: Map<string, number[]>;
  /** Length (terms) of field f of document d at d * FIELDS + f. */
  lengths: number[];
  /** Length (distinct terms) of each example task of each document. */
  taskLengths: number[][];
  /** term → documents whose whole name is that term. */
  names: Map<string, number[]>;
  /** Documents with neither tags nor tasks (their description is all they say). */
  described: boolean[];
}

/** The saved form of a segment. */
export interface SavedSegment {
  format: 3;
  ids: string[];
  postings: Array<[string, number[]]>;
  lengths: number[];
  taskLengths: number[][];
  names: Array<[string, number[]]>;
  described: number[];
}

/** Lowercase words of 3+ letters of `texts`, to cut run-together names into (`airquality`). */
function wordsOf(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const [w] of t.toLowerCase().matchAll(/\p{L}{3,}/gu)) out.add(w);
  return out;
}

/**
 * A run-together lowercase name cut into words of its own document's text (`timemachine` →
 * time, machine): the longest words first, leftovers kept out.
 */
function cutName(name: string, words: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [run] of name.toLowerCase().matchAll(/\p{L}{7,}/gu)) {
    if (words.has(run)) continue;
    let i = 0;
    while (i < run.length) {
      let found = "";
      for (let j = run.length; j >= i + 3; j--) {
        if (words.has(run.slice(i, j))) {
          found = run.slice(i, j);
          break;
        }
      }
      if (found) {
        out.push(found);
        i += found.length;
      } else i++;
    }
  }
  return out;
}

let documentsIndexed = 0;

/** How many documents this process has indexed (a test seam: index work, not index reuse). */
export function indexedDocuments(): number {
  return documentsIndexed;
}

/** Index `documents`. */
export function buildSegment(documents: readonly KeywordDocument[]): Segment {
  documentsIndexed += documents.length;
  const postings = new Map<string, number[]>();
  const lengths: number[] = [];
  const taskLengths: number[][] = [];
  const names = new Map<string, number[]>();
  const add = (doc: number, field: number, line: number, terms: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, n] of counts) {
      let list = postings.get(t);
      if (!list) postings.set(t, list = []);
      list.push(doc, field, line, n);
    }
    lengths[doc * FIELDS + field] += terms.length;
  };
  documents.forEach((d, doc) => {
    for (let f = 0; f < FIELDS; f++) lengths[doc * FIELDS + f] = 0;
    const tasks = d.tasks ?? [];
    const taskSet = new Set(tasks);
    const own = [d.description, ...(d.tags ?? []), d.title ?? ""];
    const name = nameTerms(d.name);
    const cut = cutName(d.name, wordsOf(own)).flatMap((w) => termsOf(w));
    add(doc, NAME, 0, [...name, ...cut.filter((t) => !name.includes(t))]);
    // The whole name, and its letters when it ends in a version (`kraken2` is Kraken's).
    const whole = termsOf(d.name.toLowerCase()).slice(0, 1);
    const version = /^(\p{L}{3,})\d+$/u.exec(d.name.toLowerCase());
    if (version) whole.push(...termsOf(version[1]));
    for (const key of new Set(whole)) {
      const owners = names.get(key);
      if (owners) owners.push(doc);
      else names.set(key, [doc]);
    }
    add(doc, TAG, 0, [...termsOf(d.title ?? ""), ...(d.tags ?? []).flatMap((t) => termsOf(t))]);
    taskLengths.push(tasks.map((t, i) => {
      const terms = termsOf(t);
      add(doc, TASK, i, terms);
      return new Set(terms).size;
    }));
    add(doc, DESCRIPTION, 0, termsOf(d.description));
    (d.keywords ?? []).forEach((k, i) => {
      if (!taskSet.has(k)) add(doc, KEYWORD, i, termsOf(k));
    });
  });
  return {
    ids: documents.map((d) => d.id),
    documents,
    postings,
    lengths,
    taskLengths,
    names,
    described: documents.map((d) => !d.tags?.length && !d.tasks?.length),
  };
}

/** The saved form of `segment`. */
export function saveSegment(segment: Segment): SavedSegment {
  return {
    format: 3,
    ids: segment.ids,
    postings: [...segment.postings],
    lengths: segment.lengths,
    taskLengths: segment.taskLengths,
    names: [...segment.names],
    described: segment.described.map(Number),
  };
}

/** How many lines field `field` of `d` has (tasks and keywords one a line, the rest one). */
function linesOf(d: KeywordDocument, field: number): number {
  return field === TASK ? d.tasks?.length ?? 0 : field === KEYWORD ? d.keywords?.length ?? 0 : 1;
}

const isNumbers = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((n) => Number.isInteger(n) && n >= 0);

/**
 * `saved` as the segment of `documents`, or `undefined` when it is not a saved segment of exactly
 * these documents (ids in order, one length per field, postings that name only them and only
 * lines they have).
 */
export function loadSegment(
  documents: readonly KeywordDocument[],
  saved: unknown,
): Segment | undefined {
  const s = saved as Partial<SavedSegment> | null;
  if (s === null || typeof s !== "object" || s.format !== 3) return undefined;
  const n = documents.length;
  if (
    !Array.isArray(s.ids) || s.ids.length !== n || !s.ids.every((id, i) => id === documents[i].id)
  ) return undefined;
  if (!isNumbers(s.lengths) || s.lengths.length !== n * FIELDS) return undefined;
  if (!Array.isArray(s.described) || s.described.length !== n) return undefined;
  const tasks = s.taskLengths;
  if (
    !Array.isArray(tasks) || tasks.length !== n ||
    !tasks.every((t, d) => isNumbers(t) && t.length === (documents[d].tasks?.length ?? 0))
  ) return undefined;
  const postings = new Map<string, number[]>();
  for (const row of Array.isArray(s.postings) ? s.postings : [null]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || !isNumbers(row[1])) return undefined;
    const list = row[1];
    if (list.length % 4 !== 0) return undefined;
    for (let i = 0; i < list.length; i += 4) {
      if (list[i] >= n || list[i + 1] >= FIELDS) return undefined;
      if (list[i + 2] >= linesOf(documents[list[i]], list[i + 1])) return undefined;
    }
    postings.set(row[0], list);
  }
  const names = new Map<string, number[]>();
  for (const row of Array.isArray(s.names) ? s.names : [null]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || !isNumbers(row[1])) return undefined;
    if (row[1].some((d) => d >= n)) return undefined;
    names.set(row[0], row[1]);
  }
  return {
    ids: s.ids,
    documents,
    postings,
    lengths: s.lengths,
    taskLengths: tasks,
    names,
    described: s.described.map(Boolean),
  };
}
