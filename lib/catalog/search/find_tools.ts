/**
 * `findTools`: the catalog searched by an agent mid-loop (the `find_tools`
 * meta-tool), with the ranker and evidence floor the keyword selection uses.
 *
 * @module
 */

import { EVIDENCE_FLOOR } from "./_evidence_floor.ts";
import { machinery } from "./_machinery.ts";
import type { QueryTerm } from "./_query.ts";
import { cleanLine } from "../../_text_clean.ts";
import type { Catalog, CatalogEntry, EntryKind } from "../model/types.ts";

/** One entry {@linkcode findTools} found. */
export interface FoundTool {
  /** The catalog id: the name to call it by. */
  id: string;
  /** Tool, host function or skill. */
  kind: EntryKind;
  /** Provenance: `mcp:<server>`, `host`, `builtin`, … */
  source: string;
  /** Whether the description came from a remote server (untrusted: mark it as such to a model). */
  remote: boolean;
  /** One line, hidden characters removed, at most 200 characters. */
  description: string;
  /** Which words of the query it holds, by field: `name: bam; description: sort, index`. */
  why: string;
  /** BM25+ score, rounded; only comparable within one query. */
  score: number;
}

/** Options of {@linkcode findTools}. */
export interface FindToolsOptions {
  /** Most entries (default 5, at most 50). */
  limit?: number;
  /** Kinds to search (default tools and host functions: `["tool", "function"]`). */
  kinds?: readonly EntryKind[];
}

const DEFAULT_LIMIT = 5;
/**
 * Once one entry fits (evidence at the floor), the next are offered with this share of it: an
 * agent choosing among the first five is helped by the near ones, and a request that nothing fits
 * still finds nothing (the margin over the floor is the first entry's, not each one's).
 */
const FOLLOWER_SHARE = 0.5;
const MAX_LIMIT = 50;
/** Most characters of a query read (the rest is ignored). */
const MAX_QUERY_CHARS = 2_000;

/** The query's words each field of `entry` holds, as one line. */
function whyMatched(entry: CatalogEntry, query: readonly QueryTerm[]): string {
  const { nameTerms, termsOf } = machinery();
  const terms = (texts: readonly string[]) => new Set(texts.flatMap((t) => termsOf(t)));
  const rows: Array<[string, Set<string>]> = [
    ["name", new Set(nameTerms(entry.name))],
    ["tags", terms([entry.title ?? "", ...entry.tags])],
    ["description", terms([entry.description])],
    ["keywords", terms(entry.server ? [...entry.keywords, entry.server] : entry.keywords)],
  ];
  const told = new Set<string>();
  const parts: string[] = [];
  for (const [label, set] of rows) {
    const found = query.filter((q) => set.has(q.term) && !told.has(q.term));
    for (const q of found) told.add(q.term);
    const shown = [...new Set(found.map((q) => q.word.toLowerCase()))];
    if (found.length > 0) parts.push(`${label}: ${shown.join(", ")}`);
  }
  return parts.join("; ");
}

/**
 * Search `catalog` for entries that fit `query`, as an agent's `find_tools`
 * call does mid-loop: BM25+ ranking over names, tags, descriptions and
 * parameters, keeping only entries that hold the query's specific words (the
 * evidence floor of keyword selection, so "call a tool" finds nothing), best
 * first. Held entries (waiting for approval) are never returned: the catalog
 * does not rank them (a held skill's approved stand-in may be); `findHeldTools` finds those that
 * fit, to say what waits for approval. A query that is empty or not a string finds nothing.
 *
 * @example
 * ```ts
 * import { createCatalog } from "@skillmux/core";
 * import { findTools } from "@skillmux/core/catalog";
 * const catalog = await createCatalog({
 *   functions: [
 *     { name: "lookup_sample", description: "Find a sample's FASTQ files by sample id", handler: () => [] },
 *     { name: "send_email", description: "Send an email to a colleague", handler: () => "sent" },
 *   ],
 * });
 * const found = findTools(catalog, "which fastq files belong to sample S1?");
 * console.log(found[0].id, found[0].why); // "lookup_sample" "name: sample; description: fastq"
 * ```
 */
export function findTools(
  catalog: Catalog,
  query: string,
  options: FindToolsOptions = {},
): FoundTool[] {
  if (typeof query !== "string" || query.trim() === "") return [];
  const text = query.slice(0, MAX_QUERY_CHARS);
  const requested = options.limit ?? DEFAULT_LIMIT;
  const limit = Number.isFinite(requested)
    ? Math.min(Math.max(Math.floor(requested), 0), MAX_LIMIT)
    : DEFAULT_LIMIT;
  if (limit === 0) return [];
  const kinds = options.kinds ?? ["tool", "function"];
  const asked = machinery().analyzeQuery(text);
  const out: FoundTool[] = [];
  for (const r of catalog.rank(text, { limit: 100, kinds })) {
    if (out.length >= limit) break;
    const entry = r.entry;
    // rank() holds usable entries only; the approval check is a second lock, not the first.
    // The first entry needs the floor; once one fits, the next need less (FOLLOWER_SHARE).
    const floor = out.length === 0 ? EVIDENCE_FLOOR : EVIDENCE_FLOOR * FOLLOWER_SHARE;
    if (r.evidence < floor || entry.approval !== "approved") continue;
    out.push({
      id: entry.id,
      kind: entry.kind,
      source: entry.source,
      remote: entry.remote,
      description: cleanLine(entry.description || entry.title || entry.name, 200),
      why: whyMatched(entry, asked),
      score: Math.round(r.score * 100) / 100,
    });
  }
  return out;
}
