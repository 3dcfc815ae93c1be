// Private: the Agent Skills specification's rules that lint.ts checks on every skill: the name
// (valid, equal to its folder), the lengths of description and compatibility, the syntax of
// `allowed-tools`, that every relative path the body names is a file of the skill, the body's
// recommended size, and a hint when the description does not say when to use the skill.

import type { Skill } from "./types.ts";
import type { LintSkillOptions } from "./_lint_options.ts";
import type { Add } from "./_lint_bar.ts";
import { quote } from "./_location.ts";
import { bodyReferences, normalizeRelative } from "./_references.ts";

const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;
const BODY_LINES = 500;
/** About 5,000 tokens of English prose at 4 characters a token. */
const BODY_CHARS = 20_000;

/**
 * A cue that the description says when (or for what) to use the skill: `when`, `use`/`used`/
 * `useful`, `for`, `if`, `before`/`after`/`during`/`while`, `ideal`, `preferred`, `trigger`,
 * `whenever`, `need`, `asks`, `mentions`, `working with`. Only a description with none of them is
 * flagged, and only as a hint: the specification says "should".
 */
const WHEN =
  /\b(?:when(?:ever)?|use[ds]?|using|useful|for|if|before|after|during|while|ideal|preferred|trigger(?:s|ed)?|invoke[sd]?|needs?|asks?|mentions?|wants?|working\s+with)\b/i;

/** One `allowed-tools` entry: a tool name, optionally with a parenthesised argument. */
const TOOL = /^[A-Za-z_][A-Za-z0-9_.:-]*(?:\([^()]*\))?$/;

/** The specification's checks of `skill`. */
export function lintSpec(skill: Skill, options: LintSkillOptions, add: Add): void {
  if (skill.declaredName !== undefined) {
    add(
      "error",
      "name",
      `the front matter's name ${quote(skill.declaredName)} must equal the folder name ` +
        `${quote(skill.name)} (lowercase letters, digits and single hyphens)`,
    );
  }
  const description = skill.description.trim();
  const max = options.maxDescriptionLength ?? DESCRIPTION_MAX;
  if (description.length === 0 || description.length > max) {
    add(
      "error",
      "description",
      `the description has ${description.length} characters; use 1-${max}`,
    );
  }
  const listed = options.listedDescriptionLength ?? 250;
  if (description.length > listed && description.length <= max) {
    add(
      "warning",
      "description",
      `the description has ${description.length} characters; listings truncate it at ${listed}`,
    );
  }
  if (/[<>]/.test(description)) {
    add("warning", "description", 'the description should not contain "<" or ">"');
  }
  if ((options.requireWhen ?? true) && description !== "" && !WHEN.test(description)) {
    add(
      "warning",
      "description",
      'the description should say when to use the skill (e.g. "Use when …")',
    );
  }
  if ((skill.compatibility?.length ?? 0) > COMPATIBILITY_MAX) {
    add(
      "error",
      "compatibility",
      `compatibility has ${skill.compatibility!.length} characters; at most ${COMPATIBILITY_MAX}`,
    );
  }
  for (const tool of skill.allowedTools) {
    if (!TOOL.test(tool)) {
      add(
        "error",
        "allowed-tools",
        `allowed-tools entry ${quote(tool)} is not a tool name such as "Read" or ` +
          '"Bash(git:*)"; separate entries with spaces',
      );
    }
  }
  const lines = skill.body.split("\n").length;
  if (lines > BODY_LINES) {
    add(
      "warning",
      "body",
      `the body has ${lines} lines; keep SKILL.md under ${BODY_LINES} and move detail to references/`,
    );
  } else if (skill.body.length > BODY_CHARS) {
    add(
      "warning",
      "body",
      `the body has ${skill.body.length} characters (about ${
        Math.round(skill.body.length / 4)
      } tokens); keep it under about 5,000 tokens`,
    );
  }
  if (options.files !== undefined) {
    checkReferences(skill, options.files, options.bodyLine ?? 1, add);
  }
}

/** Every relative path the body names must be a file (or folder) of the skill. */
function checkReferences(
  skill: Skill,
  files: readonly string[],
  bodyLine: number,
  add: Add,
): void {
  const have = new Set(files);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const tops = [...folders].filter((f) => !f.includes("/"));
  for (const ref of bodyReferences(skill.body, tops)) {
    const path = normalizeRelative(ref.path.replace(/\/$/, ""));
    const line = bodyLine + ref.line - 1;
    if (path === undefined) {
      add(
        "warning",
        "body",
        `the body links to ${quote(ref.path)}, outside the skill's folder: it is not ` +
          "installed or served with the skill",
        line,
      );
    } else if (path !== "SKILL.md" && !have.has(path) && !folders.has(path)) {
      add(
        "error",
        "body",
        `the body names ${quote(ref.path)}, which is not a file of the skill`,
        line,
      );
    }
  }
}
