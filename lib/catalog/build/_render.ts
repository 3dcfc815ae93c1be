// Private: the compact catalog listing, one line per entry, grouped by kind, and its token budget.
// The text depends only on the entries shown (never on time, rank or order of discovery), so the
// same catalog renders byte-identically and provider prompt caches hit.

import { firstSentence } from "../../_text_clean.ts";
import { isRemoteProvenance } from "../../resolve/provenance.ts";
import type { CatalogEntry, EntryKind, RenderedCatalog, TokenCounter } from "../model/types.ts";

const GROUPS: ReadonlyArray<[EntryKind, string]> = [
  ["skill", "Skills (know-how documents; pick by id):"],
  ["tool", "MCP tools by server (id: <server>__<tool>):"],
  ["function", "Functions of this application:"],
];

/** The part of a tool's id after `<server>__`, or the whole id when it does not start so. */
function shortId(entry: CatalogEntry): string {
  const prefix = `${entry.server}__`;
  return entry.kind === "tool" && entry.id.startsWith(prefix) && entry.id.length > prefix.length
    ? entry.id.slice(prefix.length)
    : entry.id;
}

/** Longest description shown per line, in characters. */
const LINE_DESCRIPTION = 140;

/** One entry's line (a tool's without its `<server>__` prefix: its server heads the group). */
export function entryLine(entry: CatalogEntry): string {
  const tags = entry.kind === "skill" && entry.tags.length > 0
    ? ` [${entry.tags.slice(0, 5).join(", ")}]`
    : "";
  const from = entry.kind === "skill" && isRemoteProvenance(entry.source)
    ? ` (from ${entry.source})`
    : "";
  const text = firstSentence(entry.description, LINE_DESCRIPTION) || entry.title || entry.name;
  return `${shortId(entry)}: ${text}${tags}${from}`;
}

/** The listing of `shown` (in catalog order), noting `omitted` entries left out. */
export function renderLines(
  shown: readonly CatalogEntry[],
  omitted: number,
  line: (entry: CatalogEntry) => string = entryLine,
): string {
  const out: string[] = [];
  for (const [kind, heading] of GROUPS) {
    const group = shown.filter((e) => e.kind === kind);
    if (group.length === 0) continue;
    out.push(heading);
    let server: string | undefined;
    for (const entry of group) {
      // Tools sit under a line naming their server, so each line need not repeat it.
      if (kind === "tool" && entry.server !== server) out.push(`${server = entry.server}:`);
      out.push(line(entry));
    }
  }
  if (shown.length === 0) out.push("(no entries)");
  if (omitted > 0) {
    out.push(
      `(${omitted} more entr${omitted === 1 ? "y" : "ies"} left out to fit the token budget)`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** Options of {@linkcode renderWithin}. */
export interface BudgetInput {
  /** Every usable entry, in catalog order. */
  entries: readonly CatalogEntry[];
  /** Entries (of `entries`) best first; the others come after, in catalog order. */
  preference: readonly CatalogEntry[];
  budget?: number;
  count: TokenCounter;
  /** Token count of one entry's line (cached by the caller: a number when known). */
  lineTokens: (entry: CatalogEntry) => number | Promise<number>;
  /** Each entry's place in `entries` (the caller keeps it per catalog version). */
  position: ReadonlyMap<CatalogEntry, number>;
  /** The whole listing and its tokens (cached by the caller: the same entries render the same). */
  whole: () => Promise<{ text: string; tokens: number }>;
}

/** Render within the budget, leaving out the least preferred entries first. */
export async function renderWithin(input: BudgetInput): Promise<RenderedCatalog> {
  const { entries, budget, count } = input;
  const { text: all, tokens: full } = await input.whole();
  if (budget === undefined || full <= budget) {
    return { text: all, tokens: full, ids: entries.map((e) => e.id), omitted: 0 };
  }
  const floor = await count(renderLines([], entries.length));
  if (floor > budget) {
    throw new RangeError(
      `A token budget of ${budget} is below the ${floor} tokens the catalog needs for its headings`,
    );
  }
  // Headings, the omission note and line breaks cost about this much on top of the lines.
  const overhead = floor + GROUPS.length * 2;
  // Preferred entries first, then the rest in catalog order, until one no longer fits. Walked
  // lazily: with a budget only the first few hundred of thousands of entries are looked at.
  const preferred = new Set(input.preference);
  const chosen = new Set<CatalogEntry>();
  let used = overhead;
  fill: for (const list of [input.preference, entries]) {
    for (const entry of list) {
      if (list === entries && preferred.has(entry)) continue;
      const known = input.lineTokens(entry);
      const cost = typeof known === "number" ? known : await known;
      if (used + cost > budget) break fill;
      chosen.add(entry);
      used += cost;
    }
  }
  const kept = [...chosen];
  const shown = [...chosen].sort((a, b) => input.position.get(a)! - input.position.get(b)!);
  for (;;) {
    const text = renderLines(shown, entries.length - shown.length);
    const tokens = await count(text);
    if (tokens <= budget || kept.length === 0) {
      return { text, tokens, ids: shown.map((e) => e.id), omitted: entries.length - shown.length };
    }
    shown.splice(shown.indexOf(kept.pop()!), 1);
  }
}
