// Private: parse each source's entry once. A source that answers with the same text, format and
// location as last time gets the same (frozen) answer back without parsing, so a warm resolve or
// an unchanged list() costs no YAML or Markdown work.

import { BoundedCache } from "../_bounded_cache.ts";
import { type EntryParser, parseEntry, type SourceHit } from "./_query.ts";
import type { ResolveDiagnostic, ResolverParseOptions, SkillSource, SourceEntry } from "./types.ts";

/** Most parsed entries kept per source; the oldest are forgotten first. */
const MAX_PER_SOURCE = 50_000;

interface Parsed {
  entry: SourceEntry;
  answer: SourceHit | ResolveDiagnostic;
}

/** Freeze `value` and everything reachable from it (plain data only). */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}

const same = (a: SourceEntry, b: SourceEntry) =>
  a.text === b.text && a.format === b.format && a.location === b.location;

/** An {@linkcode EntryParser} with a per-source memory of what it parsed. */
export function createEntryParser(options: ResolverParseOptions): EntryParser {
  const memory = new WeakMap<SkillSource, BoundedCache<string, Parsed>>();
  return async (source, name, entry) => {
    let parsed = memory.get(source);
    if (parsed === undefined) memory.set(source, parsed = new BoundedCache(MAX_PER_SOURCE));
    const known = parsed.get(name);
    if (known !== undefined && same(known.entry, entry)) return known.answer;
    const answer = deepFreeze(await parseEntry(source, name, entry, options));
    parsed.delete(name);
    parsed.set(name, { entry: { ...entry }, answer });
    return answer;
  };
}
