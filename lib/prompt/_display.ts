// Private: how an assembled prompt shows in a notebook (see lib/_display.ts).

import { withDisplay } from "../_display.ts";
import { escapeHtml, markdownFence, tableDisplay } from "../_display_html.ts";
import type { AssembledPrompt } from "./types.ts";

/** `prompt`, given its notebook display: what was loaded, problems, then the system prompt. */
export function displayablePrompt(prompt: AssembledPrompt): AssembledPrompt {
  return withDisplay(prompt, (p) => {
    const rows = [
      ...p.loaded.skills.map((s) => [s.id, "skill", s.source, s.inline ? "inline" : "on demand"]),
      ...p.loaded.tools.map((t) => [
        t.id,
        "tool",
        t.source,
        t.connected ? "connected" : "not connected",
      ]),
    ];
    const table = tableDisplay(
      "skillmux-prompt",
      `Prompt: ${p.tokens} tokens, ${p.loaded.skills.length} skills, ${p.loaded.tools.length} tools`,
      ["Id", "Kind", "Source", "Loaded"],
      rows,
      p.diagnostics.map((d) => `${d.id ? `${d.id}: ` : ""}${d.problem}: ${d.message}`),
    );
    return {
      "text/plain": `${table["text/plain"]}\n--- system prompt ---\n${p.system}`,
      "text/html": `${table["text/html"]}<details><summary>System prompt</summary>` +
        `<pre style="white-space:pre-wrap">${escapeHtml(p.system)}</pre></details>`,
      "text/markdown": `${table["text/markdown"]}\n\n**System prompt**\n\n${
        markdownFence(p.system)
      }`,
    };
  });
}
