/**
 * How a skill shows in a notebook (see lib/_display.ts); loaded on first display.
 *
 * @module
 */

import type { DisplayBundle } from "../_display.ts";
import { clip, escapeHtml, escapeMarkdown, htmlTable, markdownTable } from "../_display_html.ts";
import { exampleCommandLine } from "./command.ts";
import type { Skill } from "./types.ts";

/** Examples shown before "… n more". */
const SHOWN = 8;

/** One line of facts: format, tags, counts. */
function facts(skill: Skill): string {
  return [
    skill.format === "toml" ? "legacy TOML" : "Markdown",
    skill.tags.length > 0 ? `tags: ${skill.tags.join(", ")}` : "",
    `${skill.concepts.length} concepts`,
    `${skill.pitfalls.length} pitfalls`,
    `${skill.examples.length} examples`,
  ].filter((s) => s !== "").join(" · ");
}

/**
 * A skill as text, HTML and Markdown: name, description, facts, pitfalls and examples.
 *
 * @example
 * ```ts
 * import { skillDisplay } from "./display.ts";
 * import { parseSkill } from "./parse.ts";
 * const { skill } = await parseSkill("---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n");
 * console.log(skillDisplay(skill)["text/plain"]); // "pdf: Fill PDF forms. …"
 * ```
 */
export function skillDisplay(skill: Skill): DisplayBundle {
  const examples = skill.examples.slice(0, SHOWN).map((e) => [
    e.task,
    clip(exampleCommandLine(skill, e), 160),
  ]);
  const more = skill.examples.length > SHOWN ? `… ${skill.examples.length - SHOWN} more` : "";
  const plain = [
    `Skill ${skill.name}: ${skill.description}`,
    facts(skill),
    ...examples.map(([task, line]) => `  ${task}: ${line}`),
    ...(more ? [`  ${more}`] : []),
  ].join("\n");
  const list = (title: string, items: string[]) =>
    items.length === 0
      ? ""
      : `<details><summary>${title} (${items.length})</summary><ul>${
        items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")
      }</ul></details>`;
  const html = `<div class="skillmux-skill"><strong>${escapeHtml(skill.name)}</strong> ` +
    `<small>${escapeHtml(facts(skill))}</small><p>${escapeHtml(skill.description)}</p>` +
    list("Concepts", skill.concepts) + list("Pitfalls", skill.pitfalls) +
    (examples.length > 0 ? htmlTable(["Task", "Command"], examples) : "") +
    (more ? `<p><small>${escapeHtml(more)}</small></p>` : "") + "</div>";
  const markdown = [
    `**${escapeMarkdown(skill.name)}** · ${escapeMarkdown(facts(skill))}`,
    escapeMarkdown(skill.description),
    ...(examples.length > 0 ? [markdownTable(["Task", "Command"], examples)] : []),
    ...(more ? [escapeMarkdown(more)] : []),
  ].join("\n\n");
  return { "text/plain": plain, "text/html": html, "text/markdown": markdown };
}
