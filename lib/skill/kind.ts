/**
 * Which format a skill is written in: an Agent Skills `SKILL.md` (free-form body) or skillmux's
 * Concepts/Pitfalls/Examples format (worked examples, category, tags, the program it runs).
 *
 * @module
 */

import type { Skill } from "./types.ts";

/** The two formats a Markdown skill can follow; see {@linkcode skillKind}. */
export type SkillKind = "agent-skills" | "skillmux";

/**
 * The format `skill` follows: `"skillmux"` for a legacy TOML skill, a skill with worked examples
 * (`**Args:**` / `**Explanation:**`), or one whose front matter uses a skillmux field (`category`,
 * `tags`, `author`, `source_url`, `command`, `checked_version`, `min_version`, `max_version`);
 * `"agent-skills"` otherwise. Lint holds skillmux skills to the Concepts/Pitfalls/Examples bar
 * and Agent Skills to the specification only.
 *
 * @param skill A parsed skill.
 * @returns `"skillmux"` or `"agent-skills"`.
 *
 * @example
 * ```ts
 * import { parseSkill, skillKind } from "@skillmux/core/skill";
 * const { skill } = await parseSkill("---\nname: pdf\ndescription: Fill PDF forms. Use for PDFs.\n---\n");
 * console.log(skillKind(skill)); // "agent-skills"
 * ```
 */
export function skillKind(skill: Skill): SkillKind {
  if (skill.format === "toml" || skill.examples.length > 0) return "skillmux";
  // `category`, `tags` and `author` are common in other collections too: they do not decide.
  const own = [
    skill.sourceUrl,
    skill.command,
    skill.checkedVersion,
    skill.minVersion,
    skill.maxVersion,
  ];
  return own.some((value) => value !== undefined) ? "skillmux" : "agent-skills";
}
