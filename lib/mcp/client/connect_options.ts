/**
 * Options of `connect()`: protocol identity and capabilities, server-request handlers,
 * notifications, limits, and the option sets of the HTTP and stdio transports.
 *
 * @module
 */

import type { PreparedServer, PrepareServerOptions } from "../policy/prepare.ts";
import type { HttpTransportOptions } from "../transport/http_options.ts";
import type { McpTransport } from "../transport/interface.ts";
import type { AuthOptions } from "../auth/types.ts";
import type { ClientCapabilities, ClientHandlers } from "./client_handlers.ts";
import type {
  Implementation,
  JsonRpcNotification,
  ServerCapabilities,
  TransportKind,
} from "../protocol/types.ts";

/**
 * What is known about a server from an earlier connection: its protocol era and transport and,
 * for a 2026-07-28 server, its discovery until it expires. With it, `connect()` skips the era
 * probe (a 2025 server then costs `initialize` only; a 2026-07-28 server with a fresh discovery
 * costs no request at all). `client.hint` gives the hint to keep; the server registry keeps one.
 */
export interface ServerHint {
  /** `modern` (2026-07-28, stateless) or `legacy` (initialize handshake). */
  era: "modern" | "legacy";
  /** The transport that worked. */
  transport: TransportKind;
  /** The negotiated protocol version. */
  protocolVersion: string;
  /**
   * The URL that answered, when it is not the prepared one: a URL without a path is tried at
   * `/mcp` first and as given (a server mounted at `/`) when `/mcp` is not found; this records
   * the latter, so the next connect goes straight there.
   */
  endpoint?: string;
  /** Modern servers: what `server/discover` said, and until when it is fresh (epoch ms). */
  discovery?: {
    capabilities: ServerCapabilities;
    serverInfo: Implementation;
    instructions?: string;
    expiresAt: number;
  };
}

/**
 * Makes the stdio transport for `command` servers (Deno/Node). Import `stdio` from
 * `@skillmux/core/stdio` and pass `stdio()`: the browser entry never loads child processes.
 */
export type StdioConnector = (server: PreparedServer) => McpTransport;

/** Options of `connect()`. */
export interface ConnectOptions extends PrepareServerOptions {
  /**
   * Timeout of discovery requests in milliseconds: lists, reads, prompts, ping, `initialize`
   * (default 5000, `DEFAULT_REQUEST_TIMEOUT_MS`).
   */
  timeoutMs?: number;
  /**
   * `tools/call` (and any request with `onProgress`): the longest the server may stay silent, in
   * milliseconds; every progress notification starts it again (default 60000,
   * `DEFAULT_CALL_TIMEOUT_MS`). Time in a host handler does not count.
   */
  callTimeoutMs?: number;
  /**
   * `tools/call` (and any request with `onProgress`): the longest a call may run in all, however
   * much progress it reports, in milliseconds (default 30 minutes, `DEFAULT_MAX_TOTAL_MS`).
   * Longer work belongs in a task. Time in a host handler does not count.
   */
  maxTotalMs?: number;
  /** Cancels the connection attempt. */
  signal?: AbortSignal;
  /** Deadline in milliseconds for the whole connection attempt, fallback included. */
  deadlineMs?: number;
  /** How this client introduces itself. */
  clientInfo?: Implementation;
  /**
   * The protocol version to ask for. Default: 2026-07-28 first, falling back to `initialize`
   * (2025-11-25 … 2024-11-05) for older servers. A 2025 or 2024 version skips the modern probe.
   */
  protocolVersion?: string;
  /** What this client declares; default: one capability per handler in `handlers`. */
  capabilities?: ClientCapabilities;
  /** Host handlers for server requests: elicitation, sampling, roots. */
  handlers?: ClientHandlers;
  /** What an earlier connection learnt (see {@linkcode ServerHint}); skips the era probe. */
  hint?: ServerHint;
  /** Most pages a list call follows (default 100); a repeated cursor stops it too. */
  maxPages?: number;
  /**
   * Diagnostic lines (no secrets): the connection's, and the HTTP transport's unless `http.log`
   * is set.
   */
  log?: (line: string) => void;
  /** Server notifications other than progress (list changes, log messages, …). */
  onNotification?: (message: JsonRpcNotification) => void;
  /**
   * Keep a stream open for server notifications: the GET stream (2025 revisions, when the server
   * offers one; server requests may arrive there too) or `subscriptions/listen` (2026-07-28),
   * reconnecting with backoff. Default: on when `onNotification` or `handlers` is given.
   */
  listen?: boolean;
  /** Options of the HTTP transports (fetch, size cap, retries, circuit breaker, …). */
  http?: HttpTransportOptions;
  /**
   * OAuth for a server that needs a sign-in (HTTP servers): a pre-registered client or a
   * client metadata URL, the redirect URI, a token store, and `onAuthorize`, the host's callback
   * that opens the authorization URL and hands back the redirect. Its code loads on first use.
   */
  auth?: AuthOptions;
  /** The stdio transport maker, required for `command` servers: `stdio()` from `@skillmux/core/stdio`. */
  stdio?: StdioConnector;
}
