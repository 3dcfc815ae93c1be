/**
 * The error that reading an MCP registry (a "server directory" in the code) and turning its
 * entries into servers throw, with a stable `code` to branch on.
 *
 * @module
 */

/** What went wrong while searching, reading or adding from an MCP registry. */
export type DirectoryErrorCode =
  | "config" // a bad registry URL or option
  | "policy" // a URL the URL policy refuses (the registry, a redirect, a download)
  | "network" // the registry could not be reached, or timed out
  | "http" // the registry answered with an error status
  | "not-found" // 404, or a name or version the registry does not have
  | "too-large" // an answer or a download over its size cap
  | "invalid" // an answer that is not what the schema says (types, names, URLs)
  | "deleted" // the entry is marked deleted by the registry
  | "unsupported" // a package type or transport skillmux cannot run
  | "refused" // an entry that would run something other than it declares, or shell syntax
  | "missing" // a required value was not given
  | "digest"; // a download whose sha256 differs from the entry's fileSha256

/** Context of a {@linkcode DirectoryError}. */
export interface DirectoryErrorOptions {
  /** The server name concerned (`io.github.owner/server`), when there is one. */
  server?: string;
  /** The URL concerned (origin and path only), when there is one. */
  url?: string;
  /** The field of the entry that is wrong, e.g. `packages[0].runtimeHint`. */
  field?: string;
  /** The HTTP status, for `http` and `not-found`. */
  status?: number;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Thrown by the MCP registry readers (`createOfficialDirectory`, `createBioContextDirectory`),
 * `searchServers`, `getServer` and `planServer`. Nothing is saved when it is thrown.
 *
 * @example Branch on the code
 * ```ts
 * import { DirectoryError } from "@skillmux/core/directory";
 * const error = new DirectoryError("refused", "runtimeHint bash is not npx", { field: "packages[0].runtimeHint" });
 * console.log(error.code, error.field); // "refused" "packages[0].runtimeHint"
 * ```
 */
export class DirectoryError extends Error {
  /** What kind of failure this is. */
  readonly code: DirectoryErrorCode;
  /** The server name concerned, when there is one. */
  readonly server?: string;
  /** The URL concerned, when there is one. */
  readonly url?: string;
  /** The field concerned, when there is one. */
  readonly field?: string;
  /** The HTTP status, when the registry answered with one. */
  readonly status?: number;

  /**
   * Creates the error.
   *
   * @param code What kind of failure.
   * @param message A sentence naming the server, the field and what was expected.
   * @param options The server, URL, field, status and cause.
   */
  constructor(code: DirectoryErrorCode, message: string, options: DirectoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DirectoryError";
    this.code = code;
    if (options.server !== undefined) this.server = options.server;
    if (options.url !== undefined) this.url = options.url;
    if (options.field !== undefined) this.field = options.field;
    if (options.status !== undefined) this.status = options.status;
  }
}

/**
 * Whether `error` is a {@linkcode DirectoryError}, checked by `name`.
 *
 * @param error Any thrown value.
 * @returns `true` for a directory error.
 *
 * @example
 * ```ts
 * import { DirectoryError, isDirectoryError } from "@skillmux/core/directory";
 * console.log(isDirectoryError(new DirectoryError("not-found", "no such server"))); // true
 * console.log(isDirectoryError(new Error("x"))); // false
 * ```
 */
export function isDirectoryError(error: unknown): error is DirectoryError {
  return error instanceof Error && error.name === "DirectoryError";
}
