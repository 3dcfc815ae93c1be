/**
 * The MCP errors of carrying a message: the HTTP answer, the connection, the clock, the size
 * cap, the SSE stream and the circuit breaker. Each is an `McpError` with its own `code`.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "./mcp_error.ts";

/**
 * The server answered with an HTTP status that is not a success.
 *
 * @example
 * ```ts
 * import { HttpError } from "@skillmux/core/mcp";
 * const error = new HttpError(503, "Service Unavailable", "busy", { server: "docs" });
 * console.log(error.status, error.message); // 503 "HTTP 503 Service Unavailable from docs: busy"
 * ```
 */
export class HttpError extends McpError {
  /** Always `http`. */
  override readonly code: "http" = "http";
  /** The HTTP status code. */
  readonly status: number;
  /** At most 1 KiB of the response body, for diagnosis. */
  readonly body: string;
  /** The JSON-RPC error the body carried, if it was one (2026-07-28 servers answer 400/404 with one). */
  readonly rpc?: { code: number; message: string; data?: unknown };
  /** Build the error; `body` is truncated to 1 KiB. */
  constructor(
    status: number,
    statusText: string,
    body: string,
    options: McpErrorOptions & {
      rpc?: { code: number; message: string; data?: unknown };
      /** The request that failed, e.g. `POST http://127.0.0.1:3999/mcp`, for the message. */
      request?: string;
    } = {},
  ) {
    const clipped = body.length > 1024 ? `${body.slice(0, 1024)}…` : body;
    const answer = `HTTP ${status}${statusText ? ` ${statusText}` : ""}`;
    const head = options.request !== undefined
      ? `${options.server ? `${options.server}: ` : ""}${options.request} answered ${answer}`
      : `${answer}${options.server ? ` from ${options.server}` : ""}`;
    super(`${head}${clipped ? `: ${clipped}` : ""}`, options);
    this.name = "HttpError";
    this.status = status;
    this.body = clipped;
    if (options.rpc !== undefined) this.rpc = options.rpc;
  }
}

/**
 * The server could not be reached or the connection broke.
 *
 * @example
 * ```ts
 * import { NetworkError } from "@skillmux/core/mcp";
 * console.log(new NetworkError("connection refused", { server: "docs" }).server); // "docs"
 * ```
 */
export class NetworkError extends McpError {
  /** Always `network`. */
  override readonly code: "network" = "network";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "NetworkError";
  }
}

/**
 * A request, connection or stream took longer than allowed.
 *
 * @example
 * ```ts
 * import { TimeoutError } from "@skillmux/core/mcp";
 * console.log(new TimeoutError("tools/list took over 5000 ms").name); // "TimeoutError"
 * ```
 */
export class TimeoutError extends McpError {
  /** Always `timeout`. */
  override readonly code: "timeout" = "timeout";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "TimeoutError";
  }
}

/**
 * A response was larger than the configured cap; it was refused while
 * streaming, without holding it in memory.
 *
 * @example
 * ```ts
 * import { ResponseTooLargeError } from "@skillmux/core/mcp";
 * console.log(new ResponseTooLargeError(4 * 1024 * 1024).limit); // 4194304
 * ```
 */
export class ResponseTooLargeError extends McpError {
  /** Always `too-large`. */
  override readonly code: "too-large" = "too-large";
  /** The cap in bytes. */
  readonly limit: number;
  /** Build the error for a cap of `limit` bytes. */
  constructor(limit: number, options: McpErrorOptions = {}) {
    super(
      `${options.server ? `${options.server}: ` : ""}response exceeds the ${limit}-byte cap`,
      options,
    );
    this.name = "ResponseTooLargeError";
    this.limit = limit;
  }
}

/**
 * An SSE stream ended or stalled before it carried the answer.
 *
 * @example
 * ```ts
 * import { StreamEndedError } from "@skillmux/core/mcp";
 * console.log(new StreamEndedError("stream closed before the response").name); // "StreamEndedError"
 * ```
 */
export class StreamEndedError extends McpError {
  /** Always `stream-ended`. */
  override readonly code: "stream-ended" = "stream-ended";
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "StreamEndedError";
  }
}

/**
 * Calls to a server are refused for a while after repeated failures.
 *
 * @example
 * ```ts
 * import { CircuitOpenError } from "@skillmux/core/mcp";
 * console.log(new CircuitOpenError("docs failed 5 times", 30_000).retryAfterMs); // 30000
 * ```
 */
export class CircuitOpenError extends McpError {
  /** Always `circuit-open`. */
  override readonly code: "circuit-open" = "circuit-open";
  /** Milliseconds until the next attempt is allowed. */
  readonly retryAfterMs: number;
  /** Build the error. */
  constructor(message: string, retryAfterMs: number, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "CircuitOpenError";
    this.retryAfterMs = retryAfterMs;
  }
}
