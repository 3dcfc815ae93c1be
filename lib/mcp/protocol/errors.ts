/**
 * The MCP client's error family, in one import: the base {@linkcode McpError} (every error has
 * a stable `name`, a `code` for the reason, the server it concerns and, where there is one, a
 * `cause`), its subclasses from the files of their concept, and {@linkcode isMcpError}.
 * Messages never contain an API key or header value.
 *
 * @module
 */

import type { McpError } from "./mcp_error.ts";
import type {
  CircuitOpenError,
  HttpError,
  NetworkError,
  ResponseTooLargeError,
  StreamEndedError,
  TimeoutError,
} from "./transport_errors.ts";
import type {
  ProtocolError,
  RpcError,
  UnsupportedProtocolVersionError,
} from "./protocol_errors.ts";
import type { SessionExpiredError } from "./session_error.ts";
import type { PolicyError } from "./policy_error.ts";
import type { SkillVerificationError } from "./skill_verification_error.ts";

export {
  McpError,
  type McpErrorCode,
  type McpErrorOptions,
  type OAuthErrorCode,
} from "./mcp_error.ts";
export {
  CircuitOpenError,
  HttpError,
  NetworkError,
  ResponseTooLargeError,
  StreamEndedError,
  TimeoutError,
} from "./transport_errors.ts";
export { ProtocolError, RpcError, UnsupportedProtocolVersionError } from "./protocol_errors.ts";
export { SessionExpiredError } from "./session_error.ts";
export { PolicyError } from "./policy_error.ts";
export {
  SkillVerificationError,
  type SkillVerificationReason,
} from "./skill_verification_error.ts";

/** Each MCP error class by its `name`, for {@linkcode isMcpError}. */
export interface McpErrorTypes {
  /** The `McpError` class. */
  McpError: McpError;
  /** The `HttpError` class. */
  HttpError: HttpError;
  /** The `TimeoutError` class. */
  TimeoutError: TimeoutError;
  /** The `NetworkError` class. */
  NetworkError: NetworkError;
  /** The `ProtocolError` class. */
  ProtocolError: ProtocolError;
  /** The `RpcError` class. */
  RpcError: RpcError;
  /** The `SessionExpiredError` class. */
  SessionExpiredError: SessionExpiredError;
  /** The `PolicyError` class. */
  PolicyError: PolicyError;
  /** The `ResponseTooLargeError` class. */
  ResponseTooLargeError: ResponseTooLargeError;
  /** The `StreamEndedError` class. */
  StreamEndedError: StreamEndedError;
  /** The `CircuitOpenError` class. */
  CircuitOpenError: CircuitOpenError;
  /** The `UnsupportedProtocolVersionError` class. */
  UnsupportedProtocolVersionError: UnsupportedProtocolVersionError;
  /** The `SkillVerificationError` class. */
  SkillVerificationError: SkillVerificationError;
}

/** The names of the MCP error classes, for {@linkcode isMcpError}. */
export type McpErrorName = keyof McpErrorTypes;

/**
 * Whether `error` is an MCP error (optionally of one kind, which narrows the
 * type: `isMcpError(e, "HttpError")` gives `e.status`). Checks `name` and the
 * `server`-bearing shape, so it works across copies of the library.
 *
 * @example
 * ```ts
 * import { isMcpError } from "@skillmux/core";
 * import { HttpError } from "@skillmux/core/mcp";
 * const error: unknown = new HttpError(404, "Not Found", "");
 * if (isMcpError(error, "HttpError")) console.log(error.status); // 404
 * console.log(isMcpError(error), isMcpError(error, "TimeoutError")); // true false
 * ```
 */
export function isMcpError<N extends McpErrorName = "McpError">(
  error: unknown,
  name?: N,
): error is McpErrorTypes[N] {
  if (!(error instanceof Error) || !("server" in error)) return false;
  return name === undefined || name === "McpError" ? true : error.name === name;
}
