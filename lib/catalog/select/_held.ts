// Private: what a selection says about entries held for approval. Held entries are never
// selected, but a selection that leaves them out silently looks like "nothing fits": it names
// them, those that would fit the request first, with why they wait (new or changed).

import { EVIDENCE_FLOOR } from "../search/_evidence.ts";
import { buildKeywordIndex } from "../search/_keyword_index.ts";
import type { HeldSelectionEntry } from "../model/select_types.ts";
import type { Catalog, CatalogEntry } from "../model/types.ts";

/** Most held entries named in the diagnostic. */
const NAMED = 10;

/** The held entries of `catalog`, those relevant to `request` first, and a diagnostic. */
export function heldForSelection(
  catalog: Catalog,
  request: string,
): { held: HeldSelectionEntry[]; diagnostic?: string } {
  if (catalog.held.length === 0) return { held: [] };
  // Each held entry weighed alone (the catalog's index holds usable entries only).
  const fits = (entry: CatalogEntry) =>
    (buildKeywordIndex([{ ...entry, keywords: entry.keywords }]).search(request, { limit: 1 })[0]
      ?.evidence ?? 0) >= EVIDENCE_FLOOR;
  const held: HeldSelectionEntry[] = catalog.held.map(({ entry, standIn }) => ({
    id: entry.id,
    kind: entry.kind,
    source: entry.source,
    approval: entry.approval === "changed" ? "changed" as const : "pending" as const,
    fits: fits(entry),
    ...(standIn ? { standIn } : {}),
  }));
  held.sort((a, b) => Number(b.fits) - Number(a.fits));
  const why = (h: HeldSelectionEntry) =>
    `${h.id} (${h.approval === "changed" ? "changed since approved" : "new"}, ${h.source}${
      h.standIn ? `; the ${h.standIn} version answers meanwhile` : ""
    })`;
  const fitting = held.filter((h) => h.fits);
  const named = held.slice(0, NAMED).map(why).join(", ");
  const more = held.length > NAMED ? ` and ${held.length - NAMED} more` : "";
  const diagnostic = `${held.length} entr${held.length === 1 ? "y waits" : "ies wait"} for ` +
    `approval and ${held.length === 1 ? "was" : "were"} not considered${
      fitting.length > 0 ? ` (${fitting.length} would fit this request)` : ""
    }: ${named}${more}; approve with skillmux approve <id> or catalog.approve([id])`;
  return { held, diagnostic };
}
