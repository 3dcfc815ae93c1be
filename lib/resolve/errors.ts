/**
 * The resolve family of errors: {@linkcode ResolveError}, the base, with a `code` for the
 * reason, and the errors the resolver throws.
 *
 * @module
 */

import type { ResolveDiagnostic } from "./types.ts";

/**
 * Why the resolver failed, as a stable string to branch on:
 * - `not-found`: {@linkcode SkillNotFoundError}, no source has a valid skill of that name
 * - `not-listed`, `changed`: {@linkcode SkillFileError}, a file the skill does not list, or
 *   one whose bytes changed since it was listed
 * - `folder-refused`: a skill folder on disk was refused (a symlink, too many files or bytes)
 * - `env-denied`: a default skill folder cannot be located (Deno without `--allow-env`)
 */
export type ResolveErrorCode =
  | "not-found"
  | "not-listed"
  | "changed"
  | "folder-refused"
  | "env-denied";

/**
 * The base of the resolver's errors: a stable `name`, a `code` and, where there is one, the
 * `cause`.
 *
 * @example Branch on the code
 * ```ts
 * import { createResolver, ResolveError } from "@skillmux/core";
 * const error = await createResolver({ sources: [] }).resolve("nope").catch((e) => e);
 * if (error instanceof ResolveError) console.log(error.code); // "not-found"
 * ```
 */
export class ResolveError extends Error {
  /** Why it failed (see {@linkcode ResolveErrorCode}). */
  readonly code: ResolveErrorCode;

  /**
   * Build the error.
   *
   * @param code Why it failed.
   * @param message What failed, naming the skill, file or folder.
   * @param options The underlying error, if any.
   */
  constructor(code: ResolveErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ResolveError";
    this.code = code;
  }
}

/**
 * Thrown by `resolve()` when no source has a valid skill of that name. It lists
 * the sources asked and every diagnostic met on the way (invalid copies,
 * timeouts, failing sources).
 *
 * @example Tell a missing skill from other failures
 * ```ts
 * import { createResolver, isSkillNotFoundError } from "@skillmux/core";
 * try {
 *   await createResolver({ sources: [] }).resolve("nope");
 * } catch (error) {
 *   if (isSkillNotFoundError(error)) console.log(error.sources, error.diagnostics);
 * }
 * ```
 */
export class SkillNotFoundError extends ResolveError {
  /** Always `not-found`. */
  declare readonly code: "not-found";
  /** The skill name that was asked for. */
  readonly skill: string;
  /** Labels of the sources that were asked, in order. */
  readonly sources: readonly string[];
  /** Problems met on the way. */
  readonly diagnostics: readonly ResolveDiagnostic[];

  /** Build the error for `skill` after asking `sources`. */
  constructor(
    skill: string,
    sources: readonly string[],
    diagnostics: readonly ResolveDiagnostic[],
  ) {
    const asked = sources.length === 0
      ? "no sources are configured"
      : `asked ${sources.join(", ")}`;
    const problems = diagnostics.length === 0
      ? ""
      : `; ${diagnostics.map((d) => `${d.source}: ${d.message}`).join("; ")}`;
    super("not-found", `Cannot find skill "${skill}": ${asked}${problems}`);
    this.name = "SkillNotFoundError";
    this.skill = skill;
    this.sources = sources;
    this.diagnostics = diagnostics;
  }
}

/**
 * Whether `error` is a {@linkcode SkillNotFoundError} (checks `name`, so it works
 * across copies of the library).
 *
 * @example
 * ```ts
 * import { isSkillNotFoundError, resolveSkill } from "@skillmux/core";
 * const found = await resolveSkill("samtools").catch((e) => isSkillNotFoundError(e) ? undefined : Promise.reject(e));
 * console.log(found?.source);
 * ```
 */
export function isSkillNotFoundError(error: unknown): error is SkillNotFoundError {
  return error instanceof Error && error.name === "SkillNotFoundError";
}

/**
 * Thrown by `Resolution.readFile` for a path the skill does not list (`not-listed`: not a file of
 * the skill, or one the file rule leaves out, such as `.env`), and for a file whose bytes no
 * longer match the size and digest listed (`changed`: resolve the skill again).
 *
 * @example
 * ```ts
 * import { resolveSkill } from "@skillmux/core";
 * import { isSkillFileError } from "@skillmux/core/resolve";
 * const hit = await resolveSkill("samtools");
 * await hit.readFile("../../etc/passwd").catch((error) => {
 *   if (isSkillFileError(error)) console.log(error.reason); // "not-listed"
 * });
 * ```
 */
export class SkillFileError extends ResolveError {
  /** The same as `reason`. */
  declare readonly code: "not-listed" | "changed";
  /** The skill name. */
  readonly skill: string;
  /** The path asked for. */
  readonly path: string;
  /** Why the read failed (the same as `code`). */
  readonly reason: "not-listed" | "changed";

  /** Build the error for `path` of `skill`. */
  constructor(skill: string, path: string, reason: "not-listed" | "changed", detail?: string) {
    const shown = JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
    super(
      reason,
      reason === "not-listed"
        ? `Skill "${skill}" has no file ${shown}${detail ? ` (${detail})` : ""}`
        : `The file ${shown} of skill "${skill}" changed since it was listed${
          detail ? ` (${detail})` : ""
        }; resolve the skill again`,
    );
    this.name = "SkillFileError";
    this.skill = skill;
    this.path = path;
    this.reason = reason;
  }
}

/**
 * Whether `error` is a {@linkcode SkillFileError} (checks `name`).
 *
 * @example
 * ```ts
 * import { isSkillFileError } from "@skillmux/core/resolve";
 * console.log(isSkillFileError(new Error("x"))); // false
 * ```
 */
export function isSkillFileError(error: unknown): error is SkillFileError {
  return error instanceof Error && error.name === "SkillFileError";
}
