/**
 * Errors of the server registry's multi-user model: a change refused to a user who is not the
 * owner, a concurrent change that could not be merged, and a secret that cannot be decrypted.
 * Guards check `name`, so they work across bundles.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "../protocol/errors.ts";

// Sealing lives below the registry (auth/ seals tokens too); its error stays part of this module's surface.
export { isSecretKeyError, SecretKeyError } from "../sealing/errors.ts";

/**
 * A user tried to change a server they can see but do not own (a global server, or one shared
 * with them). Servers a user cannot see are "not found", exactly as unknown ones.
 *
 * @example
 * ```ts
 * import { ForbiddenError, isForbiddenError } from "@skillmux/core/mcp";
 * const error = new ForbiddenError('Cannot update server "docs": only its owner may', { server: "docs" });
 * console.log(isForbiddenError(error), error.server); // true "docs"
 * ```
 */
export class ForbiddenError extends McpError {
  /** Always `forbidden`. */
  override readonly code: "forbidden" = "forbidden";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "ForbiddenError";
  }
}

/**
 * A change lost a race: the server changed since the revision the caller read (`ifRevision`),
 * or concurrent writers kept winning past the retry budget.
 *
 * @example
 * ```ts
 * import { ConflictError, isConflictError } from "@skillmux/core";
 * const error = new ConflictError('Server "docs" changed: revision 4, expected 3', { server: "docs" });
 * console.log(isConflictError(error)); // true
 * ```
 */
export class ConflictError extends McpError {
  /** Always `conflict`. */
  override readonly code: "conflict" = "conflict";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "ConflictError";
  }
}

/**
 * Whether `error` is a {@linkcode ForbiddenError}.
 *
 * @example
 * ```ts
 * import { ForbiddenError, isForbiddenError } from "@skillmux/core/mcp";
 * console.log(isForbiddenError(new ForbiddenError("no"))); // true
 * ```
 */
export function isForbiddenError(error: unknown): error is ForbiddenError {
  return error instanceof Error && error.name === "ForbiddenError";
}

/**
 * Whether `error` is a {@linkcode ConflictError}.
 *
 * @example
 * ```ts
 * import { ConflictError, isConflictError } from "@skillmux/core";
 * console.log(isConflictError(new ConflictError("raced"))); // true
 * ```
 */
export function isConflictError(error: unknown): error is ConflictError {
  return error instanceof Error && error.name === "ConflictError";
}
