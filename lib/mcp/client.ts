/**
 * `connect()`: one MCP server, any transport, either protocol era, behind one small client API.
 *
 * @module
 */

import { isMcpError } from "./errors.ts";
import { checkConnectTarget, prepareServer, redact } from "./policy/prepare.ts";
import { Client } from "./_client.ts";
import { withDeadline } from "./_deadline.ts";
import type { ClientCapabilities, ClientHandlers } from "./client_handlers.ts";
import {
  forgetHint,
  knownHint,
  negotiate,
  type NegotiateContext,
  rememberHint,
} from "./_negotiate.ts";
import type { ConnectOptions } from "./connect_options.ts";
import type { McpClient } from "./client_types.ts";
import type { McpTransport } from "./transport/interface.ts";
import type { Implementation, McpServerConfig } from "./types.ts";

export type { ConnectOptions, ServerHint, StdioConnector } from "./connect_options.ts";

/**
 * Default per-request timeout: 5 s.
 *
 * @example Give a slow server more time
 * ```ts
 * import { connect, DEFAULT_REQUEST_TIMEOUT_MS } from "@skillmux/core";
 * await connect({ name: "slow", url: "http://127.0.0.1:3001/mcp" }, { timeoutMs: 4 * DEFAULT_REQUEST_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/**
 * Default page cap for list calls; a repeated cursor also stops a listing.
 *
 * @example
 * ```ts
 * import { connect, DEFAULT_MAX_PAGES } from "@skillmux/core";
 * await connect({ name: "big", url: "http://127.0.0.1:3001/mcp" }, { maxPages: DEFAULT_MAX_PAGES * 10 });
 * ```
 */
export const DEFAULT_MAX_PAGES = 100;

const CLIENT_INFO: Implementation = { name: "skillmux", version: "0.1.0" };

/** The capabilities to declare: the given ones, else one per handler. */
function declaredCapabilities(
  handlers: ClientHandlers | undefined,
  given: ClientCapabilities | undefined,
): ClientCapabilities {
  if (given !== undefined) return given;
  const caps: ClientCapabilities = {};
  if (handlers?.elicitation) caps.elicitation = {};
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.roots) caps.roots = {};
  return caps;
}

/**
 * Connect to an MCP server. The configuration is checked first (URL and header policy, `${VAR}`
 * templating), before any network I/O. Then, over Streamable HTTP, a 2026-07-28 request comes
 * first (`server/discover`); an older server gets `initialize` (not waiting for the
 * `initialized` notification's answer), and a 2024-11-05 server the legacy HTTP+SSE transport.
 * What was learnt is kept for the endpoint (`client.hint`), so the next connect skips the probe.
 * `command` servers need `stdio` from `@skillmux/core/stdio` (Deno and Node).
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect(
 *   { name: "docs", url: "https://mcp.example.com/mcp", apiKey: "${DOCS_KEY}" },
 *   { timeoutMs: 3_000, env: { DOCS_KEY: "secret" } },
 * );
 * const tools = await client.listTools();
 * const result = await client.callTool("search", { query: "samtools sort" });
 * await client.close();
 * ```
 */
export async function connect(
  server: McpServerConfig,
  options: ConnectOptions = {},
): Promise<McpClient> {
  const prepared = prepareServer(server, options);
  const name = prepared.name;
  if (options.auth !== undefined && prepared.url !== undefined) {
    // OAuth code (and oauth4webapi) loads only for servers that use it.
    const { OAuthSession, createAuthFetch } = await import("./auth/_lazy.ts");
    const session = new OAuthSession(prepared.url, options.auth, {
      server: name,
      fetch: options.http?.fetch,
      // Metadata and authorization-server URLs come from the server: the URL policy applies.
      checkUrl: (url) => checkConnectTarget(url, prepared.urlPolicy, { server: name }),
      // Tokens come after prepare time and change on refresh: the session adds them here.
      secrets: prepared.secrets,
    });
    options = {
      ...options,
      http: { ...options.http, fetch: createAuthFetch(session, options.http?.fetch) },
    };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Every log line of this connection (client, session, negotiation, notification stream) may
  // carry text from the server: its secrets are redacted here, in one place.
  const write = options.log;
  const log = (line: string) => write?.(redact(line, prepared.secrets));
  const closing = new AbortController();
  const context = { server: name, signal: closing.signal };
  // Server requests and notification streams are rare: their code loads when first needed.
  const answer = async (method: string, params: Record<string, unknown> | undefined) =>
    (await import("./_inputs.ts")).answerServerRequest(method, params, options.handlers, context);
  const attempt = (signal: AbortSignal | undefined, opts: ConnectOptions) => {
    const ctx: NegotiateContext = {
      clientInfo: options.clientInfo ?? CLIENT_INFO,
      capabilities: declaredCapabilities(options.handlers, options.capabilities),
      request: { signal, timeoutMs },
      answer,
      wire(transport: McpTransport) {
        transport.onNotification = options.onNotification;
        transport.onRequest = (request) => answer(request.method, request.params);
        return transport;
      },
    };
    return negotiate(prepared, opts, ctx);
  };
  const [transport, session] = await withDeadline(
    options,
    `${name}: connecting`,
    name,
    async (signal) => {
      const hinted = knownHint(prepared, options) !== undefined;
      try {
        return await attempt(signal, { ...options, log, signal });
      } catch (error) {
        // A kept hint that no longer holds: forget it and negotiate from scratch, once.
        const mismatch = isMcpError(error, "HttpError") || isMcpError(error, "ProtocolError") ||
          isMcpError(error, "RpcError");
        if (!hinted || signal?.aborted || !mismatch) throw error;
        forgetHint(prepared);
        return await attempt(signal, { ...options, log, signal, hint: undefined });
      }
    },
  );
  const client = new Client(name, transport, session, {
    timeoutMs,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    log,
    stop: () => closing.abort(),
  });
  rememberHint(prepared, client.hint);
  if (options.listen ?? (options.onNotification !== undefined || options.handlers !== undefined)) {
    let settled!: () => void;
    const ready = new Promise<void>((resolve) => (settled = resolve));
    import("./_listen.ts").then(({ listenLoop }) =>
      listenLoop(name, transport, session, closing.signal, log, settled)
    );
    // A 2025 server may send its requests (elicitation, …) on the GET stream alone: with
    // handlers, the stream is open (or known to be absent) before the first call.
    if (options.handlers !== undefined && session.era === "legacy") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ready, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
    }
  }
  return client;
}
