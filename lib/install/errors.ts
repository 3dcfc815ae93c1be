/**
 * The error community installs throw, with a stable `code` to branch on.
 *
 * @module
 */

/** What went wrong in an install, update, uninstall or search. */
export type InstallErrorCode =
  | "config" // no registry configured, a bad registry URL, a bad lock file
  | "invalid-name" // a name that is not a skill name (not ASCII, `../x`, ...)
  | "policy" // a URL the URL policy refuses
  | "network" // the registry could not be reached, or timed out
  | "http" // the registry answered with an error status, or content-encoded though asked not to
  | "not-found" // 404, or a name the index does not list
  | "too-large" // a download over the size cap
  | "invalid-index" // the index is not the expected JSON, or lists a name badly
  | "invalid-skill" // a downloaded skill does not parse or names another skill
  | "digest" // a download whose sha256 differs from the index
  | "conflict" // a skill of that name exists that the lock file does not know, or was edited
  | "not-installed"; // uninstall or update of a name that is not installed

/** Context of an {@linkcode InstallError}. */
export interface InstallErrorOptions {
  /** The skill concerned, when there is one. */
  skill?: string;
  /** The URL concerned (never with credentials), when there is one. */
  url?: string;
  /** The HTTP status, for `http` and `not-found`. */
  status?: number;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Thrown by the community installer. Nothing has been written when it is
 * thrown before the write step (every download is verified first), and a
 * failed write leaves the previous copy in place.
 *
 * @example Branch on the code
 * ```ts
 * import { InstallError } from "@skillmux/core/install";
 * const error = new InstallError("digest", 'Skill "x": the download does not match', { skill: "x" });
 * console.log(error.code, error.skill); // "digest" "x"
 * ```
 */
export class InstallError extends Error {
  /** What kind of failure this is. */
  readonly code: InstallErrorCode;
  /** The skill concerned, when there is one. */
  readonly skill?: string;
  /** The URL concerned, when there is one. */
  readonly url?: string;
  /** The HTTP status, when the registry answered with one. */
  readonly status?: number;

  /**
   * Creates the error.
   *
   * @param code What kind of failure.
   * @param message A sentence naming the skill, the URL and what was expected.
   * @param options The skill, URL, status and cause.
   */
  constructor(code: InstallErrorCode, message: string, options: InstallErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "InstallError";
    this.code = code;
    if (options.skill !== undefined) this.skill = options.skill;
    if (options.url !== undefined) this.url = options.url;
    if (options.status !== undefined) this.status = options.status;
  }
}

/**
 * Whether `error` is an {@linkcode InstallError}, checked by `name`.
 *
 * @param error Any thrown value.
 * @returns `true` for an install error.
 *
 * @example
 * ```ts
 * import { InstallError, isInstallError } from "@skillmux/core/install";
 * console.log(isInstallError(new InstallError("not-found", "no such skill"))); // true
 * console.log(isInstallError(new Error("x"))); // false
 * ```
 */
export function isInstallError(error: unknown): error is InstallError {
  return error instanceof Error && error.name === "InstallError";
}
