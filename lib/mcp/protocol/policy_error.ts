/**
 * The MCP error of a refusal by policy (URL, header, redirect, size), before any network I/O.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "./mcp_error.ts";

/**
 * A URL, header, redirect or size was refused by policy, before or instead of
 * any network I/O.
 *
 * @example
 * ```ts
 * import { PolicyError } from "@skillmux/core/mcp";
 * const error = new PolicyError('header "Host" is not allowed', { field: "headers.Host" });
 * console.log(error.field); // "headers.Host"
 * ```
 */
export class PolicyError extends McpError {
  /** Always `policy`. */
  override readonly code: "policy" = "policy";
  /** The configuration field concerned, such as `url` or `headers.X-Api-Key`. */
  readonly field?: string;
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions & { field?: string } = {}) {
    super(message, options);
    this.name = "PolicyError";
    this.field = options.field;
  }
}
