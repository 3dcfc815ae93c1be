// Private: "did you mean …?" for a skill or server name the user mistyped.

import type { Catalog } from "../catalog/model/types.ts";
import { CliError } from "./_args.ts";

/** Edit distance (insert, delete, substitute, swap two neighbours) of `a` and `b`, capped past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        next[j] = Math.min(next[j], before[j - 2] + 1);
      }
    }
    if (Math.min(...next) > max) return max + 1;
    [before, row] = [row, next];
  }
  return row[b.length];
}

/**
 * The name of `names` closest to `word` (ignoring case): within one edit for short words, two for
 * words of five characters or more, or one that starts with it; `undefined` when none is close.
 */
function closest(word: string, names: Iterable<string>): string | undefined {
  const typed = word.toLowerCase();
  const max = typed.length >= 5 ? 2 : 1;
  let best: { name: string; score: number } | undefined;
  for (const name of [...new Set(names)].sort()) {
    const lower = name.toLowerCase();
    if (lower === typed) continue;
    // A name the word starts ("samtool" → "samtools") is close even past `max` edits, but never
    // closer than its real distance: "bamtools" (2 edits) must not beat "samtools" (1).
    const edits = distance(typed, lower, max);
    const score = edits > max && typed.length >= 3 && lower.startsWith(typed) ? max : edits;
    if (score <= max && (best === undefined || score < best.score)) best = { name, score };
  }
  return best?.name;
}

/** `; did you mean "<name>"?` for the name of `names` closest to `word`, or nothing. */
export function didYouMean(word: string, names: Iterable<string>): string {
  const near = closest(word, names);
  return near === undefined ? "" : `; did you mean "${near}"?`;
}

/**
 * Run `fn`; when it fails because `word` names nothing (`missing` says so of the error), fail
 * with the same message and `did you mean "<closest name>"?`, the names coming from `names`.
 */
export async function suggesting<T>(
  word: string,
  fn: () => Promise<T>,
  missing: (error: unknown) => boolean,
  names: () => Promise<Iterable<string>>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!missing(error)) throw error;
    const hint = didYouMean(word, await names().catch(() => []));
    if (hint === "") throw error;
    throw new CliError(`${(error as Error).message}${hint}`, { cause: error });
  }
}

/** Every id of `catalog`, usable or waiting for approval: what a typed catalog id may mean. */
export function catalogIds(catalog: Catalog): string[] {
  return [...catalog.entries.map((e) => e.id), ...catalog.held.map((h) => h.entry.id)];
}
