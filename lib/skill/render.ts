/**
 * Write a skill back as Markdown with YAML front matter.
 *
 * @module
 */

import { Document, isSeq, Scalar, visit } from "yaml";
import type { Skill } from "./types.ts";
import { KNOWN_KEYS } from "./_header.ts";
import { defineData } from "./_raw.ts";

/**
 * Strings a YAML 1.1 reader (or a careless one) would not read back as the
 * same string: booleans like `yes`/`off`, numbers with `_` or `:`, dates.
 * The core schema already quotes what YAML 1.2 would retype.
 */
const AMBIGUOUS =
  /^(?:[yYnN~=]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|[-+]?\.?[0-9][0-9_:.]*(?:[eE][-+]?[0-9]+)?|0[bxo][0-9a-fA-F_]+|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?)$/s;

/**
 * Renders `skill` as Markdown: YAML front matter with the known fields in a
 * canonical order (`name, description, category, tags, author, source_url,
 * min_version, max_version, license, compatibility, metadata, allowed-tools`,
 * then the keys of `meta`), leaving out absent and empty ones, then the body.
 * Strings that could be read back as another type (`"1.10"`, `"yes"`) are
 * quoted. When the body is empty (a skill read from TOML), the body is
 * generated from the concepts, pitfalls and examples with
 * {@linkcode renderSkillSections}. The body is written as is otherwise.
 *
 * `parseSkill(renderSkill(skill))` gives back `skill`, apart from `digest`
 * and `format` and `body` of a TOML skill.
 *
 * @param skill The skill to write.
 * @returns The Markdown text, LF line endings.
 *
 * @example Convert a legacy TOML skill to Markdown
 * ```ts
 * import { parseSkill, renderSkill } from "@skillmux/core";
 * const toml = '[meta]\nname = "demo"\ndescription = "Demo. Use when testing."\n' +
 *   '[context]\nconcepts = ["One idea"]\n';
 * const { skill } = await parseSkill(toml);
 * console.log(renderSkill(skill));
 * // ---
 * // name: demo
 * // description: Demo. Use when testing.
 * // ---
 * // ## Concepts
 * //
 * // - One idea
 * ```
 */
export function renderSkill(skill: Skill): string {
  const front: Record<string, unknown> = {};
  const put = (key: string, value: unknown): void => {
    if (value === undefined || value === "") return;
    if (Array.isArray(value) && value.length === 0) return;
    if (typeof value === "object" && value !== null && Object.keys(value).length === 0) return;
    defineData(front, key, value);
  };
  defineData(front, "name", skill.name);
  defineData(front, "description", skill.description);
  put("category", skill.category);
  put("tags", skill.tags);
  put("author", skill.author);
  put("source_url", skill.sourceUrl);
  put("min_version", skill.minVersion);
  put("max_version", skill.maxVersion);
  put("license", skill.license);
  put("compatibility", skill.compatibility);
  put("metadata", skill.metadata);
  put(
    "allowed-tools",
    skill.allowedTools.every((tool) => /^\S+$/.test(tool))
      ? skill.allowedTools.join(" ")
      : skill.allowedTools,
  );
  for (const key of Object.keys(skill.meta)) {
    const value = skill.meta[key];
    if (!KNOWN_KEYS.includes(key) && value !== undefined) defineData(front, key, value);
  }
  const doc = new Document(front, { version: "1.2", logLevel: "error" });
  const tags = doc.get("tags", true);
  if (isSeq(tags)) tags.flow = true;
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && AMBIGUOUS.test(node.value)) {
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  const yaml = doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false });
  const body = skill.body !== "" ? skill.body : renderSkillSections(skill);
  return `---\n${yaml}---\n${body}`;
}

/**
 * Renders the `## Concepts`, `## Pitfalls` and `## Examples` sections of
 * `skill` (empty sections are left out), in the format
 * {@linkcode parseSkill} reads back.
 *
 * @param skill The skill whose sections to write.
 * @returns Markdown, or `""` when the skill has no concepts, pitfalls or examples.
 *
 * @example Render the sections of a skill
 * ```ts
 * import { parseSkill, renderSkillSections } from "@skillmux/core";
 * const { skill } = await parseSkill(
 *   '[meta]\nname = "ls"\ndescription = "List files. Use when exploring."\n' +
 *     '[[examples]]\ntask = "List all"\nargs = "-la"\nexplanation = "Long, with dot files"\n',
 * );
 * console.log(renderSkillSections(skill));
 * // ## Examples
 * //
 * // ### List all
 * // **Args:** `-la`
 * // **Explanation:** Long, with dot files
 * ```
 */
export function renderSkillSections(skill: Skill): string {
  const parts: string[] = [];
  const bullets = (title: string, items: readonly string[]) => {
    if (items.length > 0) {
      parts.push(`## ${title}\n\n${items.map((item) => `- ${oneLine(item)}\n`).join("")}`);
    }
  };
  bullets("Concepts", skill.concepts);
  bullets("Pitfalls", skill.pitfalls);
  if (skill.examples.length > 0) {
    const examples = skill.examples.map(({ task, args, explanation }) => {
      const a = oneLine(args);
      const e = oneLine(explanation);
      return `### ${oneLine(task)}\n**Args:**${a === "" ? "" : ` ${codeSpan(a)}`}\n` +
        `**Explanation:**${e === "" ? "" : ` ${e}`}\n`;
    });
    parts.push(`## Examples\n\n${examples.join("\n")}`);
  }
  return parts.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** An inline code span that holds `text` exactly, whatever backticks it contains. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
