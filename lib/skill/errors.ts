/**
 * Errors thrown while reading a skill, and type guards that recognise them by
 * `name` (so they work across bundles and realms).
 *
 * @module
 */

import type { SkillDiagnostic } from "./types.ts";
import { formatSkillLocation, quote } from "./_location.ts";
import { firstNonAscii } from "./_ascii.ts";

/**
 * Why a skill could not be read, as a stable string to branch on:
 * - `syntax`: the text is not a skill document: no front matter (or not closed), front matter
 *   that is not valid YAML (or TOML for a legacy skill) or not a mapping of fields
 * - `too-large`: the text or its front matter is over its byte limit
 * - `invalid`: the document was read but breaks the format's rules (a field missing or of the
 *   wrong type, a bad name or example command); `field` and `line` say where, and in strict
 *   mode a warning counts too
 */
export type SkillParseErrorCode = "syntax" | "too-large" | "invalid";

/** Context a {@linkcode SkillParseError} carries besides its message. */
export interface SkillParseErrorOptions {
  /** Why it failed (default `invalid`). */
  code?: SkillParseErrorCode;
  /** The skill name, when known. */
  skill?: string;
  /** The file path or label the text came from, when the caller said. */
  source?: string;
  /** 1-based line in the original text, when known. */
  line?: number;
  /** The front-matter field or section concerned, when there is one. */
  field?: string;
  /** Every problem found, errors and warnings. */
  diagnostics?: SkillDiagnostic[];
  /** The underlying error (a YAML or TOML error, an invalid name, ...). */
  cause?: unknown;
}

/**
 * Thrown by {@linkcode parseSkill} when a skill cannot be read. The message
 * names the skill, where the problem is and what was expected, for example
 * `Cannot parse skill "samtools" (skills/samtools.md:4): field "tags" must be a list of strings`.
 * It is the skill format's one error class; `code` says why.
 *
 * @example Read the context of a parse error
 * ```ts
 * import { isSkillParseError, parseSkill } from "@skillmux/core/skill";
 * try {
 *   await parseSkill("---\nname: demo\ndescription: Demo.\ntags: {a: 1}\n---\n", {
 *     source: "demo.md",
 *   });
 * } catch (error) {
 *   if (isSkillParseError(error)) console.log(error.code, error.line, error.field); // "invalid" 4 "tags"
 * }
 * ```
 */
export class SkillParseError extends Error {
  /** Why it failed (see {@linkcode SkillParseErrorCode}). */
  readonly code: SkillParseErrorCode;
  /** The skill name, when known. */
  readonly skill?: string;
  /** The file path or label the text came from, when the caller said. */
  readonly source?: string;
  /** 1-based line in the original text, when known. */
  readonly line?: number;
  /** The front-matter field or section concerned, when there is one. */
  readonly field?: string;
  /** Every problem found while parsing, errors first-found first. */
  readonly diagnostics: SkillDiagnostic[];

  /**
   * Creates the error.
   *
   * @param detail What went wrong, e.g. `field "tags" must be a list of strings`.
   * @param options Where it went wrong, the diagnostics and the cause.
   */
  constructor(detail: string, options: SkillParseErrorOptions = {}) {
    super(
      `Cannot parse skill${
        formatSkillLocation(options.skill, options.source, options.line)
      }: ${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "SkillParseError";
    this.code = options.code ?? "invalid";
    if (options.skill !== undefined) this.skill = options.skill;
    if (options.source !== undefined) this.source = options.source;
    if (options.line !== undefined) this.line = options.line;
    if (options.field !== undefined) this.field = options.field;
    this.diagnostics = options.diagnostics ?? [];
  }
}

/**
 * Thrown by {@linkcode assertSkillName} for a name that is not 1–64 lowercase
 * letters, digits and single inner hyphens.
 *
 * @example Catch an invalid name
 * ```ts
 * import { isInvalidSkillNameError } from "@skillmux/core/skill";
 * import { assertSkillName } from "@skillmux/core/skill";
 * try {
 *   assertSkillName("../etc");
 * } catch (error) {
 *   console.log(isInvalidSkillNameError(error)); // true
 * }
 * ```
 */
export class InvalidSkillNameError extends TypeError {
  /** Always `invalid-name`: a bad argument, so a `TypeError` rather than a `SkillParseError`. */
  readonly code: "invalid-name" = "invalid-name";
  /** The rejected value, as given. */
  readonly value: unknown;

  /**
   * Creates the error.
   *
   * @param value The rejected value.
   * @param options The underlying cause, if any, and the first non-ASCII
   * character found (defaults to the first one in `value`).
   */
  constructor(value: unknown, options?: ErrorOptions & { nonAscii?: string }) {
    const foreign = options?.nonAscii ??
      (typeof value === "string" ? firstNonAscii(value) : undefined);
    super(
      `Invalid skill name ${describeValue(value)}: ${
        foreign === undefined
          ? ""
          : `${describeChar(foreign)} is not ASCII; skill names are ASCII only: `
      }${NAME_RULE}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "InvalidSkillNameError";
    this.value = value;
  }
}

const NAME_RULE = 'use 1-64 lowercase letters, digits and single hyphens, e.g. "samtools"';

/** `"K" (U+212A)`: a character and its code point. */
function describeChar(char: string): string {
  const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `${JSON.stringify(char)} (U+${code})`;
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  return `(expected a string, got ${value === null ? "null" : typeof value})`;
}

/**
 * Whether `error` is a {@linkcode SkillParseError}, checked by `name` so that
 * it also recognises errors from another copy of this library.
 *
 * @param error Any thrown value.
 * @returns `true` for a skill parse error.
 *
 * @example Tell parse errors from other failures
 * ```ts
 * import { isSkillParseError, parseSkill } from "@skillmux/core/skill";
 * const error = await parseSkill("not a skill").catch((e: unknown) => e);
 * console.log(isSkillParseError(error)); // true
 * ```
 */
export function isSkillParseError(error: unknown): error is SkillParseError {
  return error instanceof Error && error.name === "SkillParseError";
}

/**
 * Whether `error` is an {@linkcode InvalidSkillNameError}, checked by `name`.
 *
 * @param error Any thrown value.
 * @returns `true` for an invalid-name error.
 *
 * @example Recognise a rejected name
 * ```ts
 * import { isInvalidSkillNameError } from "@skillmux/core/skill";
 * import { assertSkillName } from "@skillmux/core/skill";
 * try {
 *   assertSkillName("a--b");
 * } catch (error) {
 *   console.log(isInvalidSkillNameError(error)); // true
 * }
 * ```
 */
export function isInvalidSkillNameError(error: unknown): error is InvalidSkillNameError {
  return error instanceof Error && error.name === "InvalidSkillNameError";
}
