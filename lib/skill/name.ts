/**
 * Skill names: 1–64 lowercase ASCII letters, digits and single inner hyphens,
 * so a name is always safe as a file or folder name and as a `skill://`
 * authority, and the name shown is the name resolved.
 *
 * @module
 */

import { InvalidSkillNameError } from "./errors.ts";
import { firstNonAscii } from "./_ascii.ts";

/**
 * The longest skill name allowed, in characters (Agent Skills specification).
 *
 * @example Check a length
 * ```ts
 * import { SKILL_NAME_MAX_LENGTH } from "@skillmux/core/skill";
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
 * import { isValidSkillName } from "@skillmux/core/skill";
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
 * import { assertSkillName } from "@skillmux/core/skill";
 * const input: unknown = "samtools";
 * assertSkillName(input);
 * console.log(input.toUpperCase()); // "SAMTOOLS"
 * ```
 */
export function assertSkillName(name: unknown): asserts name is string {
  if (!isValidSkillName(name)) throw new InvalidSkillNameError(name);
}

/**
 * A name as typed (`Samtools`, `BWA-MEM2`) turned into the skill name it
 * stands for, or an error. The name must be ASCII as given and still ASCII
 * after Unicode normalisation (NFKC, then case folding), so that a look-alike
 * such as `\u212Aelvin` (KELVIN SIGN, which lowercases to ASCII `k`) is
 * refused rather than resolved as `kelvin`; then it must be a valid name.
 *
 * @param name Any value, e.g. a name from a command line, a URI or a tool call.
 * @returns The lowercased, valid skill name.
 * @throws {InvalidSkillNameError} When `name` is not ASCII (before or after
 * normalisation) or not a valid skill name once lowercased.
 *
 * @example Normalise user input, refusing look-alikes
 * ```ts
 * import { normalizeSkillName } from "@skillmux/core/skill";
 * console.log(normalizeSkillName("SAMtools")); // "samtools"
 * try {
 *   normalizeSkillName("\u212Aelvin");
 * } catch (error) {
 *   console.log((error as Error).message); // names U+212A and says names are ASCII
 * }
 * ```
 */
export function normalizeSkillName(name: unknown): string {
  if (typeof name !== "string") throw new InvalidSkillNameError(name);
  const normal = name.normalize("NFKC").toLowerCase();
  const foreign = firstNonAscii(name) ?? firstNonAscii(normal);
  if (foreign !== undefined) throw new InvalidSkillNameError(name, { nonAscii: foreign });
  assertSkillName(normal);
  return normal;
}

/**
 * The non-throwing twin of {@linkcode normalizeSkillName}: the skill name, or
 * `undefined` when `name` cannot be one.
 *
 * @param name Any value.
 * @returns The lowercased valid name, or `undefined`.
 *
 * @example Skip names a source lists that are not skill names
 * ```ts
 * import { safeNormalizeSkillName } from "@skillmux/core/skill";
 * console.log(["Samtools", "\u212Aelvin", "../x"].map(safeNormalizeSkillName));
 * // ["samtools", undefined, undefined]
 * ```
 */
export function safeNormalizeSkillName(name: unknown): string | undefined {
  try {
    return normalizeSkillName(name);
  } catch {
    return undefined;
  }
}
