// Private: how resolutions and listings show in a notebook (see lib/_display.ts); loaded on
// first display.

import type { DisplayBundle } from "../_display.ts";
import { clip, escapeHtml, escapeMarkdown, tableDisplay } from "../_display_html.ts";
import { skillDisplay } from "../skill/display.ts";
import type { Resolution, ResolveDiagnostic, SkillListing } from "./types.ts";

const diagnosticLine = (d: ResolveDiagnostic) =>
  `${d.source}${d.name ? ` (${d.name})` : ""}: ${d.problem}: ${d.message}`;

function diagnosticsDisplay(diagnostics: readonly ResolveDiagnostic[]): DisplayBundle {
  const lines = diagnostics.map(diagnosticLine);
  return {
    "text/plain": lines.map((l) => `  ${l}`).join("\n"),
    "text/html": lines.length === 0 ? "" : `<details><summary>Diagnostics (${lines.length})` +
      `</summary><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul></details>`,
    "text/markdown": lines.map((l) => `- ${escapeMarkdown(l)}`).join("\n"),
  };
}

/** A resolution's notebook display: provenance, then the skill, then the diagnostics. */
export function resolutionDisplay(r: Resolution): DisplayBundle {
  {
    const where = `from ${r.source}${r.location ? ` (${r.location})` : ""}` +
      (r.shadows.length > 0 ? `, shadows ${r.shadows.join(", ")}` : "");
    const skill = skillDisplay(r.skill);
    const notes = diagnosticsDisplay(r.diagnostics);
    return {
      "text/plain": [
        skill["text/plain"],
        where,
        ...(r.diagnostics.length ? ["diagnostics:"] : []),
        notes["text/plain"],
      ].filter((s) => s !== "").join("\n"),
      "text/html": `<div class="skillmux-resolution">${skill["text/html"]}<p><small>${
        escapeHtml(where)
      }</small></p>${notes["text/html"]}</div>`,
      "text/markdown": [
        skill["text/markdown"],
        `*${escapeMarkdown(where)}*`,
        notes["text/markdown"],
      ]
        .filter((s) => s !== "").join("\n\n"),
    };
  }
}

/** A listing's notebook display: a table of name, source, shadows and description. */
export function listingDisplay(l: SkillListing): DisplayBundle {
  return tableDisplay(
    "skillmux-listing",
    `${l.skills.length} skills`,
    ["Skill", "Source", "Shadows", "Description"],
    l.skills.map((s) => [s.name, s.source, s.shadows.join(", "), clip(s.description, 100)]),
    l.diagnostics.map(diagnosticLine),
  );
}
