/**
 * The base of the MCP family of errors: {@linkcode McpError}, its `code` (the reason, one of
 * {@linkcode McpErrorCode}), the server it concerns and the `cause`. Every error the MCP client,
 * its transports, policy, OAuth, sealing and the server registry throw is one; the subclasses
 * sit in the files of their concept (`transport_errors.ts`, `protocol_errors.ts`, …) and
 * `errors.ts` gathers them with {@linkcode isMcpError}.
 *
 * @module
 */

/**
 * An OAuth step's reason, the `code` of an `OAuthError` (in RFC 6749's snake_case, as its own
 * codes are; the rest of the library spells codes in kebab-case). It is listed here, with the
 * family's base, because every code of the family is one of {@linkcode McpErrorCode}:
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
 * Why an MCP error was thrown, as a stable string to branch on (each subclass has one):
 * - `failed`: a plain {@linkcode McpError}, a failure of no other kind (the `cause` says more)
 * - `cancelled`: a plain {@linkcode McpError}: the server cancelled a task the client awaited
 * - `http`: `HttpError`, an HTTP status that is not a success (`status`, `body`)
 * - `network`: `NetworkError`, the server could not be reached or the connection broke
 * - `timeout`: `TimeoutError`, a request, connection or stream took longer than allowed
 * - `too-large`: `ResponseTooLargeError`, a response over the size cap (`limit`)
 * - `stream-ended`: `StreamEndedError`, an SSE stream ended or stalled before the answer
 * - `circuit-open`: `CircuitOpenError`, calls refused after repeated failures (`retryAfterMs`)
 * - `protocol`: `ProtocolError`, the server broke the protocol (invalid JSON-RPC, content type)
 * - `rpc`: `RpcError`, the server answered with a JSON-RPC error (its number is `rpcCode`)
 * - `unsupported-version`: `UnsupportedProtocolVersionError` (`version`)
 * - `session-expired`: `SessionExpiredError`, the server forgot the MCP session
 * - `policy`: `PolicyError`, a URL, header, redirect or size refused by policy (`field`)
 * - `skill-verification`: `SkillVerificationError`, a skill read over MCP failed its check (`reason`)
 * - `secret-key`: `SecretKeyError`, a sealed secret cannot be decrypted
 * - `forbidden`, `conflict`: `ForbiddenError`, `ConflictError` of the server registry
 * - the {@linkcode OAuthErrorCode}s: `OAuthError`
 */
export type McpErrorCode =
  | "failed"
  | "cancelled"
  | "http"
  | "network"
  | "timeout"
  | "too-large"
  | "stream-ended"
  | "circuit-open"
  | "protocol"
  | "rpc"
  | "unsupported-version"
  | "session-expired"
  | "policy"
  | "skill-verification"
  | "secret-key"
  | "forbidden"
  | "conflict"
  | OAuthErrorCode;

/** Options every MCP error takes. */
export interface McpErrorOptions {
  /** The server name (or URL) the error concerns. */
  server?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The base of every error the MCP client throws. A subclass fixes its `code`; a plain
 * `McpError` is `failed` unless told `cancelled`.
 *
 * @example Catch anything the MCP layer throws, and branch on the code
 * ```ts
 * import { connect, isMcpError } from "@skillmux/core";
 * try {
 *   await connect({ name: "local", url: "http://127.0.0.1:9/mcp" });
 * } catch (error) {
 *   if (isMcpError(error)) console.log(error.code, error.server, error.message); // "network" "local" …
 * }
 * ```
 */
export class McpError extends Error {
  /** Why it was thrown (see {@linkcode McpErrorCode}). */
  readonly code: McpErrorCode;
  /** The server the error concerns, when known. */
  readonly server?: string;
  /** Build an error; `name` and `code` are set by each subclass. */
  constructor(
    message: string,
    options: McpErrorOptions & { code?: "failed" | "cancelled" } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpError";
    this.code = options.code ?? "failed";
    this.server = options.server;
  }
}
