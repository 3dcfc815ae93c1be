/**
 * The error of the OAuth layer: one class with a stable `code`. Messages name what was wrong
 * (the field, the expected and the received issuer, …) and never contain a token, a code, a
 * client secret or a code verifier.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "../protocol/errors.ts";

/**
 * What went wrong, as a stable code:
 * - `sign_in_required`: the server needs an interactive sign-in and the options cannot do one:
 *   no `onAuthorize` callback, or no `redirectUri` (there is no default); the message names which
 * - `reauth_required`: the refresh token was refused (expired, revoked); sign in again
 * - `metadata_not_found`, `invalid_metadata`, `issuer_mismatch`, `resource_mismatch`,
 *   `pkce_unsupported`, `insecure_url`: discovery and metadata validation
 * - `state_mismatch`, `iss_mismatch`, `authorization_denied`: the authorization response
 * - `registration_failed`, `no_client`: client registration
 * - `token_request_failed`, `invalid_token_response`: the token endpoint
 * - `insufficient_scope`: step-up gave up after its retry limit
 * - `issuer_changed`: the server now names another authorization server than the one the
 *   configured client (`clientId`, `clientCredentials`) belongs to; its credentials were not sent
 */
export type OAuthErrorCode =
  | "sign_in_required"
  | "reauth_required"
  | "metadata_not_found"
  | "invalid_metadata"
  | "issuer_mismatch"
  | "resource_mismatch"
  | "pkce_unsupported"
  | "insecure_url"
  | "state_mismatch"
  | "iss_mismatch"
  | "authorization_denied"
  | "registration_failed"
  | "no_client"
  | "token_request_failed"
  | "invalid_token_response"
  | "insufficient_scope"
  | "issuer_changed";

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
  readonly code: OAuthErrorCode;
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
