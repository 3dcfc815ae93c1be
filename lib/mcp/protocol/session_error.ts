/**
 * The MCP error of a lost MCP session (`Mcp-Session-Id`, the 2025 protocol revisions).
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "./mcp_error.ts";

/**
 * The server forgot the session and re-initialising once did not help, or the
 * request was not safe to replay (`tools/call`).
 *
 * @example
 * ```ts
 * import { SessionExpiredError } from "@skillmux/core/mcp";
 * console.log(new SessionExpiredError("session expired").name); // "SessionExpiredError"
 * ```
 */
export class SessionExpiredError extends McpError {
  /** Always `session-expired`. */
  override readonly code: "session-expired" = "session-expired";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "SessionExpiredError";
  }
}
