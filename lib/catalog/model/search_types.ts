/**
 * Types of keyword search: the documents the index ranks, its hits, and a catalog's ranked rows.
 *
 * @module
 */

import type { CatalogEntry, EntryKind } from "./entry_types.ts";

/** One row of {@linkcode Catalog.rank}. */
export interface RankedEntry {
  /** The entry. */
  entry: CatalogEntry;
  /** BM25+ score; higher is better. Only comparable within one query. */
  score: number;
  /** How much of the query's specific wording the entry holds (see {@linkcode KeywordHit.evidence}). */
  evidence: number;
}

/** Options of {@linkcode Catalog.rank}. */
export interface RankOptions {
  /** Most rows (default 10). */
  limit?: number;
  /** Only these kinds (default all). */
  kinds?: readonly EntryKind[];
}

/** A document to rank. */
export interface KeywordDocument {
  /** Unique id, returned by searches. */
  id: string;
  /** The name (boosted most). */
  name: string;
  /** A display title. */
  title?: string;
  /** What it does. */
  description: string;
  /** Tags (weighed more than the description). */
  tags?: readonly string[];
  /** Further words: concepts, example tasks, parameter names (weighed least). */
  keywords?: readonly string[];
  /** Example tasks, one per line (also in `keywords`): a word here weighs like a tag. */
  tasks?: readonly string[];
}

/** One hit of {@linkcode KeywordIndex.search}. */
export interface KeywordHit {
  /** The document id. */
  id: string;
  /** BM25F score; higher is better. Only comparable within one query. */
  score: number;
  /**
   * Absolute relevance, comparable across queries and catalogs: for each
   * distinct word of the query, the weight of the best field it appears in
   * exactly (after stemming) — name 3, title or tags 2, an example task or the
   * description 1.5 (2 for an entry with neither tags nor tasks), other
   * keywords 0.5 — times how specific the word is in this catalog, summed.
   * Everyday words that mean different things in different fields (`call`,
   * `map`, `sort`, `index`, `tool`…) count a third, and a word that is another
   * entry's whole name a third. Words found only in tasks and keywords count
   * half, unless a specific query word is in the name, tags or description, or
   * one example task holds two of the query's words. A lone match (one specific
   * word, and that word the entry's own name or one many entries hold) of a
   * request whose other words pull away (words no entry holds, product names
   * the catalog lacks) is cut below 2; product names the catalog lacks
   * count against any entry. The first hit, at 2.5 times the second's score and
   * with evidence of its own, is kept at 2 or more.
   * Selection keeps entries with at least 2.
   */
  evidence: number;
}

/** A built index. */
export interface KeywordIndex {
  /** How many documents it holds. */
  readonly size: number;
  /** Documents matching `query`, best first (at most `limit`, default 10). */
  search(query: string, options?: { limit?: number }): KeywordHit[];
}
