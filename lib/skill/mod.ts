/**
 * The skill format: parse, check and render skills written as Agent Skills
 * `SKILL.md`, in the Concepts/Pitfalls/Examples Markdown format, or in the
 * legacy TOML layout.
 *
 * @example Parse, lint and render a skill
 * ```ts
 * import { lintSkill, parseSkill, renderSkill } from "@skillmux/core/skill";
 * const { skill } = await parseSkill("---\nname: demo\ndescription: Demo. Use when testing.\n---\n");
 * console.log(lintSkill(skill).length, renderSkill(skill));
 * ```
 *
 * @module
 */

export type { Skill, SkillDiagnostic, SkillExample, SkillFormat } from "./types.ts";
export {
  InvalidSkillNameError,
  isInvalidSkillNameError,
  isSkillParseError,
  SkillParseError,
  type SkillParseErrorCode,
  type SkillParseErrorOptions,
} from "./errors.ts";
export {
  assertSkillName,
  isValidSkillName,
  normalizeSkillName,
  safeNormalizeSkillName,
  SKILL_NAME_MAX_LENGTH,
} from "./name.ts";
export {
  DEFAULT_SKILL_MAX_BYTES,
  type ParsedSkill,
  parseSkill,
  type ParseSkillOptions,
  safeParseSkill,
  type SafeParseSkillResult,
} from "./parse.ts";
export { renderSkill, type RenderSkillOptions, renderSkillSections } from "./render.ts";
export { exampleCommandLine, exampleProgram } from "./command.ts";
export { readFrontMatter } from "./front_matter.ts";
export { isLintClean, lintSkill, type LintSkillOptions } from "./lint.ts";
export { type SkillKind, skillKind } from "./kind.ts";
export {
  isSkillFile,
  SKILL_FOLDER_LIMITS,
  skillFileExclusion,
  type SkillFileInfo,
} from "./files.ts";
