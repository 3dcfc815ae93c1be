/**
 * Read a skill from text: Agent Skills `SKILL.md`, the Concepts/Pitfalls/Examples
 * Markdown format, or the legacy TOML layout.
 *
 * @module
 */

import type { ParsedSkill, ParseSkillOptions, Skill, SkillDiagnostic } from "./types.ts";
import { isSkillParseError, type SkillParseError } from "./errors.ts";

export type { ParsedSkill, ParseSkillOptions } from "./types.ts";

/**
 * The default size cap of {@linkcode parseSkill}: 256 KiB of UTF-8.
 *
 * @example Raise the cap for one call
 * ```ts
 * import { parseSkill } from "@skillmux/core/skill";
 * import { DEFAULT_SKILL_MAX_BYTES } from "@skillmux/core/skill";
 * const text = "---\nname: demo\ndescription: Demo. Use when testing.\n---\n";
 * await parseSkill(text, { maxBytes: 4 * DEFAULT_SKILL_MAX_BYTES });
 * ```
 */
export const DEFAULT_SKILL_MAX_BYTES = 262_144;

/** What {@linkcode safeParseSkill} returns: a skill, or the parse error. */
export type SafeParseSkillResult =
  | { success: true; skill: Skill; diagnostics: SkillDiagnostic[] }
  | { success: false; error: SkillParseError };

/**
 * Reads a skill from `text`. YAML is parsed with the core schema only (no
 * code execution, no custom types); `---js` style front matter is refused,
 * alias bombs, duplicate keys and oversized input fail fast. Lenient by
 * default: problems a reader can live with come back as warnings.
 *
 * @param text The whole file, as given (the digest covers these exact bytes).
 * @param options The expected name, a source label, strictness, format and size cap.
 * @returns The skill and its warnings.
 * @throws {SkillParseError} When the text is not a usable skill.
 *
 * @example Parse a SKILL.md
 * ```ts
 * import { parseSkill } from "@skillmux/core/skill";
 * const text = "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n# Demo\n";
 * const { skill, diagnostics } = await parseSkill(text, { name: "demo", source: "demo/SKILL.md" });
 * console.log(skill.name, skill.body, diagnostics.length); // "demo" "# Demo\n" 0
 * ```
 */
export async function parseSkill(
  text: string,
  options: ParseSkillOptions = {},
): Promise<ParsedSkill> {
  if (typeof text !== "string") {
    throw new TypeError(`Cannot parse skill: expected the text as a string, got ${typeof text}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_SKILL_MAX_BYTES;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new RangeError(
      `Cannot parse skill: maxBytes must be a positive integer, got ${maxBytes}`,
    );
  }
  const { readSkill } = await import("./_parse.ts");
  return readSkill(text, options, maxBytes);
}

/**
 * The non-throwing twin of {@linkcode parseSkill}: a {@linkcode SkillParseError}
 * comes back as `{ success: false, error }`. Other errors (a bad argument) still throw.
 *
 * @param text The whole file, as given.
 * @param options As for {@linkcode parseSkill}.
 * @returns `{ success: true, skill, diagnostics }` or `{ success: false, error }`.
 *
 * @example Skip broken skills while loading many
 * ```ts
 * import { safeParseSkill } from "@skillmux/core/skill";
 * const result = await safeParseSkill("---\nname: x\n---\n", { source: "x.md" });
 * if (!result.success) console.log(result.error.message);
 * ```
 */
export async function safeParseSkill(
  text: string,
  options: ParseSkillOptions = {},
): Promise<SafeParseSkillResult> {
  try {
    const { skill, diagnostics } = await parseSkill(text, options);
    return { success: true, skill, diagnostics };
  } catch (error) {
    if (isSkillParseError(error)) return { success: false, error };
    throw error;
  }
}
