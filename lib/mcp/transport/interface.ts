/**
 * The transport contract: how the client sends JSON-RPC to one server. The
 * client owns the handshake (initialize, version negotiation, re-initialising
 * after a lost session); a transport moves messages, correlates ids, enforces
 * timeouts and size caps, and reports HTTP-level facts through typed errors.
 *
 * @module
 */

import type {
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Progress,
  TransportKind,
} from "../protocol/types.ts";

/** Options of one request. */
export interface TransportRequestOptions {
  /** Cancels this request. */
  signal?: AbortSignal;
  /** Per-request timeout in milliseconds (the client passes its default, 5000). */
  timeoutMs?: number;
  /** Safe to retry and to replay after a lost session (everything but `tools/call`). */
  idempotent?: boolean;
  /** Called for `notifications/progress` tied to this request. */
  onProgress?: (progress: Progress) => void;
  /** Extra HTTP headers for this request (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); ignored by stdio. */
  headers?: Record<string, string>;
  /**
   * A long-lived stream (`subscriptions/listen`): no timeout, no stall timer and no retry;
   * it ends when the server answers or `signal` aborts.
   */
  longLived?: boolean;
  /**
   * The caller times this request itself (a long call: progress resets its timer, host handler
   * time does not count): the transport sets no timeout or stall timer of its own, and `signal`
   * ends the request.
   */
  watched?: boolean;
  /**
   * A probe whose silence is an answer (`server/discover` sent to a server that may be older):
   * on stdio, its timeout rejects it without stopping the child.
   */
  probe?: boolean;
}

/** Answers one server-to-client request (elicitation, sampling, roots); throws for an error reply. */
export type ServerRequestHandler = (
  request: JsonRpcRequest,
) => Promise<Record<string, unknown>>;

/**
 * One connection to one server. `request` resolves with the response whose id
 * equals the request's id (a result or a JSON-RPC error object); it rejects
 * with `TimeoutError`, `NetworkError`, `HttpError`, `ProtocolError`,
 * `StreamEndedError`, `ResponseTooLargeError` or `SessionExpiredError` (the
 * server no longer knows `sessionId`: HTTP 404, or the 400 some servers send).
 *
 * @example A transport is what `connect` builds for you
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect({ name: "local", url: "http://127.0.0.1:3001/mcp" });
 * console.log(client.transport); // "streamable-http" | "sse" | "stdio"
 * await client.close();
 * ```
 */
export interface McpTransport {
  /** Which transport this is. */
  readonly kind: TransportKind;
  /** The session id the server assigned, once it has. */
  readonly sessionId: string | undefined;
  /** Send a request and wait for its response. */
  request(message: JsonRpcRequest, options?: TransportRequestOptions): Promise<JsonRpcResponse>;
  /** Send a notification (HTTP: expects 202). */
  notify(message: JsonRpcNotification, options?: TransportRequestOptions): Promise<void>;
  /** After initialize: send `MCP-Protocol-Version: <version>` on every later request. */
  setProtocolVersion(version: string): void;
  /** Forget the session id and protocol version (before initialising again). */
  resetSession(): void;
  /** Server-to-client notifications other than progress (list_changed, logging, …). */
  onNotification?: (message: JsonRpcNotification) => void;
  /** Server-to-client requests other than `ping` (which gets `{}`); without it they get -32601. */
  onRequest?: ServerRequestHandler;
  /**
   * Streamable HTTP (2025 revisions): open the GET stream for server-initiated messages and route
   * them until it ends; `unsupported` when the server offers none. Absent on other transports.
   */
  listen?(
    signal: AbortSignal,
    onOpen?: () => void,
  ): Promise<{ outcome: "unsupported" | "ended"; retryMs?: number }>;
  /** End the session (HTTP: DELETE; stdio: kill the child) and release resources. Idempotent. */
  close(): Promise<void>;
}
