/**
 * The MCP client's error hierarchy. Every error is an {@linkcode McpError}
 * with a stable `name`, the server it concerns and, where there is one, a
 * `cause`. Messages never contain an API key or header value.
 *
 * @module
 */

// Long because: the MCP error hierarchy: thirteen small classes, each with its JSDoc and example
// (about half the lines), and the table of names isMcpError reads.

/** Options every MCP error takes. */
export interface McpErrorOptions {
  /** The server name (or URL) the error concerns. */
  server?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The base of every error the MCP client throws.
 *
 * @example Catch anything the MCP layer throws
 * ```ts
 * import { connect, isMcpError } from "@skillmux/core";
 * try {
 *   await connect({ name: "local", url: "http://127.0.0.1:9/mcp" });
 * } catch (error) {
 *   if (isMcpError(error)) console.log(error.name, error.server, error.message);
 * }
 * ```
 */
export class McpError extends Error {
  /** The server the error concerns, when known. */
  readonly server?: string;
  /** Build an error; `name` is set by each subclass. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpError";
    this.server = options.server;
  }
}

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
 * A request, connection or stream took longer than allowed.
 *
 * @example
 * ```ts
 * import { TimeoutError } from "@skillmux/core/mcp";
 * console.log(new TimeoutError("tools/list took over 5000 ms").name); // "TimeoutError"
 * ```
 */
export class TimeoutError extends McpError {
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "TimeoutError";
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
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "NetworkError";
  }
}

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
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "ProtocolError";
  }
}

/**
 * The server answered a request with a JSON-RPC error.
 *
 * @example
 * ```ts
 * import { RpcError } from "@skillmux/core/mcp";
 * const error = new RpcError(-32601, "Method not found");
 * console.log(error.code, error.data); // -32601 undefined
 * ```
 */
export class RpcError extends McpError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The error's `data`, as sent. */
  readonly data?: unknown;
  /** Build the error from the JSON-RPC error object's fields. */
  constructor(code: number, message: string, data?: unknown, options: McpErrorOptions = {}) {
    super(`${options.server ? `${options.server}: ` : ""}MCP error ${code}: ${message}`, options);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

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
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "SessionExpiredError";
  }
}

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
  /** The configuration field concerned, such as `url` or `headers.X-Api-Key`. */
  readonly field?: string;
  /** Build the error. */
  constructor(message: string, options: McpErrorOptions & { field?: string } = {}) {
    super(message, options);
    this.name = "PolicyError";
    this.field = options.field;
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
  /** Milliseconds until the next attempt is allowed. */
  readonly retryAfterMs: number;
  /** Build the error. */
  constructor(message: string, retryAfterMs: number, options: McpErrorOptions = {}) {
    super(message, options);
    this.name = "CircuitOpenError";
    this.retryAfterMs = retryAfterMs;
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

/** Why a skill served over MCP was not used (SEP-2640 verification). */
export type SkillVerificationReason =
  | "unlisted"
  | "size"
  | "digest"
  | "frontmatter"
  | "dynamic"
  | "limits"
  | "invalid";

/**
 * A skill file read over MCP did not match its `skills/list` entry (size, digest, front matter),
 * was not listed in it, or the entry itself is unusable. The content was not used.
 *
 * @example
 * ```ts
 * import { SkillVerificationError } from "@skillmux/core/mcp";
 * const error = new SkillVerificationError("digest", "skill://bwa/SKILL.md", "digest mismatch");
 * console.log(error.reason, error.uri); // "digest" "skill://bwa/SKILL.md"
 * ```
 */
export class SkillVerificationError extends McpError {
  /** What failed. */
  readonly reason: SkillVerificationReason;
  /** The file (or skill) concerned. */
  readonly uri: string;
  /** Build the error. */
  constructor(
    reason: SkillVerificationReason,
    uri: string,
    message: string,
    options: McpErrorOptions = {},
  ) {
    super(`${options.server ? `${options.server}: ` : ""}${message}`, options);
    this.name = "SkillVerificationError";
    this.reason = reason;
    this.uri = uri;
  }
}

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
