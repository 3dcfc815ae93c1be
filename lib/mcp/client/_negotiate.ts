// Private: pick the protocol era of a server and open a session in it. Unknown servers get a
// modern request first (`server/discover`); a 2xx that is not a discovery, a JSON-RPC error that
// is not one only modern servers send, or HTTP 400/404/405 without one, means an older server:
// `initialize` follows (and legacy HTTP+SSE after it, as before). What was learnt is kept per
// endpoint for the life of the process (and handed out as `client.hint` to persist), so a known
// server skips the probe.

import { hasNodeBuiltins } from "../../_node.ts";
import { isMcpError, PolicyError, UnsupportedProtocolVersionError } from "../protocol/errors.ts";
import { LEGACY_VERSIONS, MODERN_VERSION, type ProtocolSession } from "./_protocol.ts";
import { type InputAnswerer, MODERN_ERROR_CODES, ModernSession } from "./_modern.ts";
import { Session } from "./_session.ts";
import { StreamableHttpTransport } from "../transport/_streamable_http.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import type { McpTransport, TransportRequestOptions } from "../transport/interface.ts";
import type { ConnectOptions, ServerHint } from "./connect_options.ts";
import type { ClientCapabilities } from "./client_handlers.ts";
import type { Implementation } from "../protocol/types.ts";

/** What negotiation needs besides the connect options. */
export interface NegotiateContext {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  request: TransportRequestOptions;
  answer: InputAnswerer;
  /** Wire the host's handlers and notifications into a new transport. */
  wire(transport: McpTransport): McpTransport;
}

/** HTTP statuses at `initialize` that mean "no Streamable HTTP here; try legacy SSE" (spec). */
const FALLBACK_STATUSES = new Set([400, 404, 405]);
const hints = new Map<string, ServerHint>();
const MAX_HINTS = 256;

/** The key an endpoint's hint is kept under. */
export function hintKey(server: PreparedServer): string {
  return server.url?.href ?? `stdio:${JSON.stringify([server.command, ...server.args])}`;
}

/** Remember what was learnt about an endpoint (bounded; oldest first out). */
export function rememberHint(server: PreparedServer, hint: ServerHint): void {
  const key = hintKey(server);
  hints.delete(key);
  hints.set(key, hint);
  if (hints.size > MAX_HINTS) hints.delete(hints.keys().next().value!);
}

/** Forget an endpoint's hint (its assumption failed). */
export function forgetHint(server: PreparedServer): void {
  hints.delete(hintKey(server));
}

/** What is known about `server`: the caller's hint, else this process's memory. */
export function knownHint(server: PreparedServer, options: ConnectOptions): ServerHint | undefined {
  return options.hint ?? hints.get(hintKey(server));
}

async function openTransport(
  prepared: PreparedServer,
  options: ConnectOptions,
  kind: "streamable-http" | "sse" | "stdio",
): Promise<McpTransport> {
  if (kind === "stdio") {
    if (options.stdio === undefined) {
      throw new PolicyError(
        `Server "${prepared.name}" is a stdio server: pass { stdio: stdio() } (import { stdio } from "@skillmux/core/stdio") to connect it`,
        { server: prepared.name, field: "command" },
      );
    }
    return options.stdio(prepared);
  }
  // The transport's diagnostics (retries, ignored messages, a notification handler that threw)
  // go to the connection's `log` unless the HTTP options name their own.
  const http = { ...options.http, log: options.http?.log ?? options.log };
  if (kind === "streamable-http") return new StreamableHttpTransport(prepared, http);
  // Legacy SSE is loaded only when a server needs it, keeping the common path small.
  const { LegacySseTransport } = await import("../transport/_legacy_sse.ts");
  return new LegacySseTransport(prepared, http);
}

async function legacy(
  transport: McpTransport,
  prepared: PreparedServer,
  options: ConnectOptions,
  ctx: NegotiateContext,
): Promise<Session> {
  transport.resetSession();
  const version = options.protocolVersion ?? LEGACY_VERSIONS[0];
  const session = new Session(
    transport,
    prepared.name,
    ctx.clientInfo,
    version,
    ctx.capabilities,
    options.log,
  );
  await session.initialize({ ...ctx.request, idempotent: true });
  return session;
}

/** Whether a failed modern probe means "an older server" rather than a real failure. */
function looksLegacy(error: unknown): boolean {
  if (isMcpError(error, "RpcError")) return !MODERN_ERROR_CODES.has(error.rpcCode);
  if (isMcpError(error, "ProtocolError")) return true;
  if (isMcpError(error, "HttpError")) {
    return FALLBACK_STATUSES.has(error.status) && !MODERN_ERROR_CODES.has(error.rpc?.code ?? 0);
  }
  // A browser cannot tell a CORS refusal of the Mcp-* headers from a network error.
  return isMcpError(error, "NetworkError") && !hasNodeBuiltins();
}

async function closeQuietly(transport: McpTransport): Promise<void> {
  await transport.close().catch(() => {});
}

/** Open a transport and a session of the right era (see the top of this file). */
export async function negotiate(
  prepared: PreparedServer,
  options: ConnectOptions,
  ctx: NegotiateContext,
): Promise<[McpTransport, ProtocolSession]> {
  const known = knownHint(prepared, options);
  const stdio = prepared.kind === "stdio";
  const forcedSse = prepared.transport === "sse" || known?.transport === "sse";
  const wantsLegacy = options.protocolVersion !== undefined &&
    options.protocolVersion !== MODERN_VERSION;
  const first = stdio ? "stdio" : forcedSse ? "sse" : "streamable-http";
  // One transport (over stdio: one process) for the whole negotiation, unless HTTP falls back.
  let transport = ctx.wire(await openTransport(prepared, options, first));
  try {
    if (!forcedSse && !wantsLegacy && known?.era !== "legacy") {
      const modern = new ModernSession(
        transport,
        prepared.name,
        ctx.clientInfo,
        ctx.capabilities,
        ctx.answer,
      );
      const fresh = known?.era === "modern" && known.discovery &&
        known.discovery.expiresAt > Date.now();
      try {
        if (fresh) modern.adopt({ protocolVersion: MODERN_VERSION, ...known.discovery! });
        // Over stdio an older server that ignores the probe is still the same process: its
        // silence rejects the probe only (the start-up allowance covers a slow start).
        else await modern.discover({ ...ctx.request, idempotent: true, probe: stdio });
        return [transport, modern];
      } catch (error) {
        if (isMcpError(error, "RpcError") && error.rpcCode === -32022) {
          throw new UnsupportedProtocolVersionError(MODERN_VERSION, {
            server: prepared.name,
            cause: error,
          });
        }
        // A stdio server silent after it started is an older one; one that never started is not.
        const silent = stdio && isMcpError(error, "TimeoutError") &&
          (transport as { started?: boolean }).started === true;
        if (!looksLegacy(error) && !silent) throw error;
        options.log?.(`${prepared.name}: not a 2026-07-28 server; falling back to initialize`);
        // 404 or 405 to a POST is how a legacy SSE endpoint answers: load that transport while
        // `initialize` is tried, so the likely fallback does not wait for its code.
        if (
          prepared.transport === "auto" && isMcpError(error, "HttpError") &&
          (error.status === 404 || error.status === 405)
        ) import("../transport/_legacy_sse.ts").catch(() => {});
      }
    }
    try {
      return [transport, await legacy(transport, prepared, options, ctx)];
    } catch (error) {
      const fallback = !stdio && !forcedSse && prepared.transport === "auto" &&
        isMcpError(error, "HttpError") && FALLBACK_STATUSES.has(error.status);
      if (!fallback) throw error;
      options.log?.(
        `${prepared.name}: Streamable HTTP refused initialize; trying the legacy HTTP+SSE transport`,
      );
      await closeQuietly(transport);
      transport = ctx.wire(await openTransport(prepared, options, "sse"));
      try {
        return [transport, await legacy(transport, prepared, options, ctx)];
      } catch (sseError) {
        if (!isMcpError(sseError, "HttpError")) throw sseError;
        // No legacy endpoint either: the POST's answer says what is wrong, not the GET's.
        options.log?.(`${prepared.name}: legacy HTTP+SSE: ${sseError.message}`);
        throw error;
      }
    }
  } catch (error) {
    await closeQuietly(transport);
    throw error;
  }
}
