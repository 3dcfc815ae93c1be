/**
 * The error of the OAuth layer: one class with a stable `code`. Messages name what was wrong
 * (the field, the expected and the received issuer, …) and never contain a token, a code, a
 * client secret or a code verifier.
 *
 * @module
 */

import { McpError, type McpErrorOptions, type OAuthErrorCode } from "../protocol/errors.ts";

// The codes are listed with the MCP family's base, which must know every code of its family.
export type { OAuthErrorCode };

/**
 * An OAuth step failed. `code` says which; `server` names the MCP server.
 *
 * @example Tell "sign in again" from other failures
 * ```ts
 * import { isOAuthError, OAuthError } from "@skillmux/core/oauth";
 * const error: unknown = new OAuthError("reauth_required", "docs: the refresh token was refused", { server: "docs" });
 * if (isOAuthError(error, "reauth_required")) console.log("run: skillmux mcp login docs");
 * ```
 */
export class OAuthError extends McpError {
  /** What went wrong (see {@linkcode OAuthErrorCode}). */
  override readonly code: OAuthErrorCode;
  /** Build the error; `message` must hold no secret. */
  constructor(code: OAuthErrorCode, message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "OAuthError";
    this.code = code;
  }
}

/**
 * Whether `error` is an {@linkcode OAuthError} (optionally with this `code`). Checks `name`,
 * so it works across copies of the library.
 *
 * @example
 * ```ts
 * import { isOAuthError, OAuthError } from "@skillmux/core/oauth";
 * const error = new OAuthError("state_mismatch", "the redirect's state is not the one sent");
 * console.log(isOAuthError(error), isOAuthError(error, "iss_mismatch")); // true false
 * ```
 *
 * @example From the main entry: show "Sign in" for a server that needs one
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { isOAuthError } from "@skillmux/core/oauth";
 * try {
 *   await connect({ name: "docs", url: "https://docs.example.com/mcp" }, { auth: {} });
 * } catch (error) {
 *   if (isOAuthError(error, "sign_in_required")) console.log(error.message);
 * }
 * ```
 */
export function isOAuthError(error: unknown, code?: OAuthErrorCode): error is OAuthError {
  if (!(error instanceof Error) || error.name !== "OAuthError") return false;
  return code === undefined || (error as OAuthError).code === code;
}
