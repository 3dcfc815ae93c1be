/**
 * The error of sealing: a secret stored encrypted that cannot be decrypted. Shared by the
 * registry (sealed server configs) and auth/ (sealed token stores), so it sits below both.
 * Guards check `name`, so they work across bundles.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "../protocol/errors.ts";

/**
 * A secret stored encrypted cannot be decrypted: the registry has no key, a different key, or
 * the stored value was altered. Never garbage, never the secret in the message.
 *
 * @example
 * ```ts
 * import { isSecretKeyError, SecretKeyError } from "@skillmux/core/mcp";
 * console.log(isSecretKeyError(new SecretKeyError("wrong key"))); // true
 * ```
 */
export class SecretKeyError extends McpError {
  /** Always `secret-key`. */
  override readonly code: "secret-key" = "secret-key";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "SecretKeyError";
  }
}

/**
 * Whether `error` is a {@linkcode SecretKeyError}.
 *
 * @example
 * ```ts
 * import { isSecretKeyError, SecretKeyError } from "@skillmux/core/mcp";
 * console.log(isSecretKeyError(new SecretKeyError("no key"))); // true
 * ```
 */
export function isSecretKeyError(error: unknown): error is SecretKeyError {
  return error instanceof Error && error.name === "SecretKeyError";
}
