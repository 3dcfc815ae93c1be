/**
 * Write a skill back as Markdown with YAML front matter.
 *
 * @module
 */

import type { Skill } from "./types.ts";
import { KNOWN_KEYS, splitTools } from "./_keys.ts";
import { defineData } from "./_raw.ts";
import { exampleProgram } from "./command.ts";
import { bodyWithCommands, codeSpan, commandLine } from "./_render_parts.ts";

/** Options of {@linkcode renderSkill} and {@linkcode renderSkillSections}. */
export interface RenderSkillOptions {
  /**
   * Give every example a `**Command:**` line naming the program it runs (its
   * own, else the skill's `command`, else the skill name), so that a reader
   * sees the full command line of each example. Default `false`: only the
   * examples with a program of their own get the line, which round-trips exactly.
   */
  showCommands?: boolean;
}

/**
 * Strings a YAML 1.1 reader (or a careless one) would not read back as the
 * same string: booleans like `yes`/`off`, numbers with `_` or `:`, dates.
 * The core schema already quotes what YAML 1.2 would retype.
 */
const AMBIGUOUS =
  /^(?:[yYnN~=]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|[-+]?\.?[0-9][0-9_:.]*(?:[eE][-+]?[0-9]+)?|0[bxo][0-9a-fA-F_]+|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?)$/s;

/** Words a YAML reader would take for a boolean or null rather than a string. */
const KEYWORD = /^(?:true|false|null|~|y|n|yes|no|on|off)$/i;

/**
 * Whether `text` can be written as a plain (unquoted) YAML scalar and read back
 * as the same string: starts with a letter or digit, one line, none of the
 * sequences that end a plain scalar, not a keyword or number-like, and (in a
 * flow list) no flow indicators.
 */
function isPlain(text: string, flow: boolean): boolean {
  return /^[\p{L}\p{N}]/u.test(text) &&
    // deno-lint-ignore no-control-regex -- control characters are exactly what must be quoted
    !/[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(text) &&
    !text.includes(": ") && !text.includes(" #") && !text.endsWith(":") && !/\s$/.test(text) &&
    !AMBIGUOUS.test(text) && !KEYWORD.test(text) && !(flow && /[,[\]{}]/.test(text));
}

/** A scalar or collection as YAML: plain when safe, otherwise JSON (which YAML reads as flow style). */
function emitValue(value: unknown, flow = false): string {
  if (typeof value === "string") return isPlain(value, flow) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? "null";
}

/** One top-level `key: value` line (a block map for string maps, a flow list for string lists). */
function emitEntry(key: string, value: unknown): string {
  const name = isPlain(key, true) && !key.includes(":") ? key : JSON.stringify(key);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return `${name}: [${value.map((item) => emitValue(item, true)).join(", ")}]\n`;
  }
  const isMap = typeof value === "object" && value !== null && !Array.isArray(value);
  if (
    isMap && Object.keys(value).length > 0 &&
    Object.values(value).every((v) => typeof v === "string")
  ) {
    const entries = Object.entries(value as Record<string, string>);
    return `${name}:\n${
      entries.map(([k, v]) => `  ${emitValue(k, true)}: ${emitValue(v)}\n`).join("")
    }`;
  }
  return `${name}: ${emitValue(value)}\n`;
}

/**
 * Renders `skill` as Markdown: YAML front matter with the known fields in a
 * canonical order (`name, description, category, tags, author, source_url,
 * min_version, max_version, license, compatibility, metadata, allowed-tools`,
 * then the keys of `meta`), leaving out absent and empty ones, then the body.
 * Strings that could be read back as another type (`"1.10"`, `"yes"`) are
 * quoted. When the body is empty (a skill read from TOML), the body is
 * generated from the concepts, pitfalls and examples with
 * {@linkcode renderSkillSections}. The body is written as is otherwise
 * (with `showCommands`, a `**Command:**` line goes before each example's
 * `**Args:**` that lacks one).
 *
 * `parseSkill(renderSkill(skill))` gives back `skill`, apart from `digest`
 * and `format` and `body` of a TOML skill.
 *
 * @param skill The skill to write.
 * @param options `showCommands` to name the program in every example.
 * @returns The Markdown text, LF line endings.
 *
 * @example Convert a legacy TOML skill to Markdown
 * ```ts
 * import { parseSkill, renderSkill } from "@skillmux/core/skill";
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
export function renderSkill(skill: Skill, options: RenderSkillOptions = {}): string {
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
  put("command", skill.command);
  put("checked_version", skill.checkedVersion);
  put("min_version", skill.minVersion);
  put("max_version", skill.maxVersion);
  put("license", skill.license);
  put("compatibility", skill.compatibility);
  put("metadata", skill.metadata);
  // One space-separated string (the specification's form) when it reads back as the same list.
  const joined = skill.allowedTools.join(" ");
  const split = splitTools(joined);
  put(
    "allowed-tools",
    split.length === skill.allowedTools.length && split.every((t, i) => t === skill.allowedTools[i])
      ? joined
      : skill.allowedTools,
  );
  for (const key of Object.keys(skill.meta)) {
    const value = skill.meta[key];
    if (!KNOWN_KEYS.includes(key) && value !== undefined) defineData(front, key, value);
  }
  const yaml = Object.keys(front).map((key) => emitEntry(key, front[key])).join("");
  const body = skill.body === ""
    ? renderSkillSections(skill, options)
    : options.showCommands === true
    ? bodyWithCommands(skill)
    : skill.body;
  return `---\n${yaml}---\n${body}`;
}

/**
 * Renders the `## Concepts`, `## Pitfalls` and `## Examples` sections of
 * `skill` (empty sections are left out), in the format
 * {@linkcode parseSkill} reads back. An example with a program of its own
 * gets a `**Command:**` line before its `**Args:**` (every example does with
 * `showCommands`).
 *
 * @param skill The skill whose sections to write.
 * @param options `showCommands` to name the program in every example.
 * @returns Markdown, or `""` when the skill has no concepts, pitfalls or examples.
 *
 * @example Render the sections of a skill
 * ```ts
 * import { parseSkill, renderSkillSections } from "@skillmux/core/skill";
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
export function renderSkillSections(skill: Skill, options: RenderSkillOptions = {}): string {
  const showCommands = options.showCommands === true;
  const parts: string[] = [];
  const bullets = (title: string, items: readonly string[]) => {
    if (items.length > 0) {
      parts.push(`## ${title}\n\n${items.map((item) => `- ${oneLine(item)}\n`).join("")}`);
    }
  };
  bullets("Concepts", skill.concepts);
  bullets("Pitfalls", skill.pitfalls);
  if (skill.examples.length > 0) {
    const examples = skill.examples.map((example) => {
      const a = oneLine(example.args);
      const e = oneLine(example.explanation);
      const program = showCommands ? exampleProgram(skill, example) : example.command;
      return `### ${oneLine(example.task)}\n${program === undefined ? "" : commandLine(program)}` +
        `**Args:**${a === "" ? "" : ` ${codeSpan(a)}`}\n` +
        `**Explanation:**${e === "" ? "" : ` ${e}`}\n`;
    });
    parts.push(`## Examples\n\n${examples.join("\n")}`);
  }
  return parts.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
