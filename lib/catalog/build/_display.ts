// Private: how catalogs and selections show in a notebook (see lib/_display.ts).

import { type DisplayBundle, withDisplay } from "../../_display.ts";
import { clip, tableDisplay } from "../../_display_html.ts";
import type { Selection } from "../model/select_types.ts";
import type { Catalog } from "../model/types.ts";

/** A catalog as a table of its usable entries, then what is held and what went wrong. */
export function catalogDisplay(catalog: Catalog): DisplayBundle {
  const count = (kind: string) => catalog.entries.filter((e) => e.kind === kind).length;
  const title = `Catalog: ${count("skill")} skills, ${count("tool")} MCP tools, ` +
    `${count("function")} host functions` +
    (catalog.held.length > 0 ? `; ${catalog.held.length} held until approved` : "");
  const rows = catalog.entries.map((e) => [e.id, e.kind, e.source, clip(e.description, 100)]);
  const notes = [
    ...catalog.held.map((h) => `held ${h.entry.id} (${h.entry.approval}, ${h.entry.source})`),
    ...catalog.diagnostics.map((d) => `${d.source}: ${d.problem}: ${d.message}`),
  ];
  return tableDisplay(
    "skillmux-catalog",
    title,
    ["Id", "Kind", "Source", "Description"],
    rows,
    notes,
  );
}

/** `selection`, given its notebook display: what was chosen, how, and why. */
export function displayableSelection(selection: Selection): Selection {
  return withDisplay(selection, (s) => {
    const score = (id: string) => s.scores?.[id] === undefined ? "" : s.scores[id].toFixed(2);
    const rows = [
      ...s.skills.map((id) => [id, "skill", score(id)]),
      ...s.tools.map((id) => [id, "tool", score(id)]),
    ];
    const title = `Selection via ${s.via} (${s.complexity}): ${s.skills.length} skills, ` +
      `${s.tools.length} tools${s.needsExternal ? "; needs something the catalog lacks" : ""}`;
    const notes = [
      `reasoning: ${s.reasoning}`,
      ...(s.fallback ? [`fallback (${s.fallback.reason}): ${s.fallback.message}`] : []),
      ...s.diagnostics,
    ];
    return tableDisplay("skillmux-selection", title, ["Id", "Kind", "Score"], rows, notes);
  });
}
