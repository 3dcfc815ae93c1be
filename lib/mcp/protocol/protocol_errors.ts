/**
 * The MCP errors of the conversation itself: a server that breaks the protocol, a JSON-RPC error
 * answer, and a protocol version this client does not speak. Each is an `McpError` with its own
 * `code`.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "./mcp_error.ts";

/**
 * The server broke the protocol: invalid JSON or JSON-RPC, a wrong content
 * type, a malformed session id, an answer that fails validation.
 *
 * @example
 * ```ts
 * import { ProtocolError } from "@skillmux/core/mcp";
 * console.log(new ProtocolError("expected a JSON-RPC response").name); // "ProtocolError"
 * ```
 */
export class ProtocolError extends McpError {
  /** Always `protocol`. */
  override readonly code: "protocol" = "protocol";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "ProtocolError";
  }
}

/**
 * The server answered a request with a JSON-RPC error. Its `code` is `rpc`, as the family's
 * codes are strings; the JSON-RPC error's number is `rpcCode`.
 *
 * @example
 * ```ts
 * import { RpcError } from "@skillmux/core/mcp";
 * const error = new RpcError(-32601, "Method not found");
 * console.log(error.code, error.rpcCode, error.data); // "rpc" -32601 undefined
 * ```
 */
export class RpcError extends McpError {
  /** Always `rpc`. */
  override readonly code: "rpc" = "rpc";
  /** The JSON-RPC error code (`-32601` for an unknown method, …). */
  readonly rpcCode: number;
  /** The error's `data`, as sent. */
  readonly data?: unknown;
  /** Build the error from the JSON-RPC error object's fields. */
  constructor(rpcCode: number, message: string, data?: unknown, options: McpErrorOptions = {}) {
    super(
      `${options.server ? `${options.server}: ` : ""}MCP error ${rpcCode}: ${message}`,
      options,
    );
    this.name = "RpcError";
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/**
 * The server insists on a protocol version this client does not speak.
 *
 * @example
 * ```ts
 * import { UnsupportedProtocolVersionError } from "@skillmux/core/mcp";
 * console.log(new UnsupportedProtocolVersionError("1999-01-01").version); // "1999-01-01"
 * ```
 */
export class UnsupportedProtocolVersionError extends McpError {
  /** Always `unsupported-version`. */
  override readonly code: "unsupported-version" = "unsupported-version";
  /** The version the server asked for. */
  readonly version: string;
  /** Build the error. */
  constructor(version: string, options: McpErrorOptions = {}) {
    super(
      `${options.server ? `${options.server}: ` : ""}unsupported protocol version "${version}"`,
      options,
    );
    this.name = "UnsupportedProtocolVersionError";
    this.version = version;
  }
}
