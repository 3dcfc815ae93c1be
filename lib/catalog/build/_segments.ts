// Private: the catalog's usable entries as keyword-index segments, one per source, keyed so that
// a source whose listing did not change keeps its segment; the user's labelled requests
// (`CreateCatalogOptions.feedback`) join the example tasks of the entries they name.

import { BoundedCache } from "../../_bounded_cache.ts";
import type { RawEntry } from "./_raw_entry.ts";
import type { IndexSegment } from "../search/_keyword_index.ts";
import type { CatalogEntry, FeedbackRequest, KeywordDocument } from "../model/types.ts";

/** Labelled requests by the id of the entry they name (see `CreateCatalogOptions.feedback`). */
export type Feedback = ReadonlyMap<string, readonly string[]>;

/** The requests of `labelled` that name entries, by id, in order (`"none"` labels name none). */
export function feedbackOf(labelled: readonly FeedbackRequest[] | undefined): Feedback {
  const out = new Map<string, string[]>();
  for (const { request, expected } of labelled ?? []) {
    if (expected === "none" || typeof request !== "string") continue;
    for (const id of new Set(expected)) {
      const lines = out.get(id);
      if (lines) lines.push(request);
      else out.set(id, [request]);
    }
  }
  return out;
}

/**
 * An entry's keyword document; the user's own labelled requests that name it are more example
 * tasks (weighed like the entry's own).
 */
function documentOf(
  { entry: e, raw }: { entry: CatalogEntry; raw: RawEntry },
  feedback?: Feedback,
): KeywordDocument {
  const told = feedback?.get(e.id);
  return {
    id: e.id,
    name: e.name,
    title: e.title,
    description: e.description,
    tags: e.tags,
    keywords: e.server ? [...e.keywords, e.server] : e.keywords,
    tasks: told ? [...(raw.tasks ?? []), ...told] : raw.tasks,
  };
}

/** Short stand-ins for index keys (a number per distinct key; numbers are never reused). */
const interned = new BoundedCache<string, number>(100_000, "all");
let nextKey = 0;
function intern(key: string): number {
  let n = interned.get(key);
  if (n === undefined) {
    interned.set(key, n = nextKey++);
  }
  return n;
}

/**
 * The usable entries as index segments, one per source (a server's tools, the built-in skills,
 * ...), each keyed by its entries' ids and the keys of their documents: a source whose listing
 * did not change keeps its segment, one that changed is indexed again alone.
 */
export function segmentsOf(
  usable: Iterable<{ entry: CatalogEntry; raw: RawEntry }>,
  feedback: Feedback,
): IndexSegment[] {
  const bySource = new Map<string, Array<{ entry: CatalogEntry; raw: RawEntry }>>();
  for (const x of usable) {
    const group = bySource.get(x.entry.source);
    if (group) group.push(x);
    else bySource.set(x.entry.source, [x]);
  }
  const keyOf = (x: { entry: CatalogEntry; raw: RawEntry }) => {
    const told = feedback.get(x.entry.id);
    const key = x.raw.indexKey ?? JSON.stringify(documentOf(x));
    return told ? `${key}\u0000feedback\u0000${JSON.stringify(told)}` : key;
  };
  return [...bySource].map(([source, group]) => ({
    key: `${source}\n${group.map((x) => `${x.entry.id}\u0000${intern(keyOf(x))}`).join("\n")}`,
    stableKey: () => `${source}\n${group.map((x) => `${x.entry.id}\u0000${keyOf(x)}`).join("\n")}`,
    documents: () => group.map((x) => documentOf(x, feedback)),
  }));
}
