/**
 * Skill names: 1–64 lowercase letters, digits and single inner hyphens, so a
 * name is always safe as a file or folder name and as a `skill://` authority.
 *
 * @module
 */

import { InvalidSkillNameError } from "./errors.ts";

/**
 * The longest skill name allowed, in characters (Agent Skills specification).
 *
 * @example Check a length
 * ```ts
 * import { SKILL_NAME_MAX_LENGTH } from "@skillmux/core";
 * console.log("samtools".length <= SKILL_NAME_MAX_LENGTH); // true
 * ```
 */
export const SKILL_NAME_MAX_LENGTH = 64;

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Whether `name` is a valid skill name: a string of 1–64 characters from
 * `[a-z0-9-]`, with no leading, trailing or doubled hyphen. Path separators,
 * dots, upper case and whitespace are never valid.
 *
 * @param name Any value.
 * @returns `true` when `name` is a valid skill name.
 *
 * @example Validate names
 * ```ts
 * import { isValidSkillName } from "@skillmux/core";
 * console.log(isValidSkillName("bwa-mem2")); // true
 * console.log(isValidSkillName("../x")); // false
 * console.log(isValidSkillName("Samtools")); // false
 * ```
 */
export function isValidSkillName(name: unknown): name is string {
  return typeof name === "string" && name.length <= SKILL_NAME_MAX_LENGTH &&
    NAME_PATTERN.test(name);
}

/**
 * Throws an {@linkcode InvalidSkillNameError} unless `name` passes
 * {@linkcode isValidSkillName}.
 *
 * @param name Any value.
 * @throws {InvalidSkillNameError} When `name` is not a valid skill name.
 *
 * @example Guard a name taken from user input
 * ```ts
 * import { assertSkillName } from "@skillmux/core";
 * const input: unknown = "samtools";
 * assertSkillName(input);
 * console.log(input.toUpperCase()); // "SAMTOOLS"
 * ```
 */
export function assertSkillName(name: unknown): asserts name is string {
  if (!isValidSkillName(name)) throw new InvalidSkillNameError(name);
}
