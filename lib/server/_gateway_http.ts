// Private: the gateway over Streamable HTTP at `/mcp`, with sessions (`Mcp-Session-Id`: progress,
// cancellation and `list_changed` need a session). The edge is the skills server's: Origin and
// Host checks, CORS, the bearer token. With many users each token names one user; a session
// belongs to the user who opened it and answers 404 to any other user's token.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  acceptsJsonOnly,
  bearerCheck,
  corsHeaders,
  hostAllowed,
  isLoopback,
  originAllowed,
  preflight,
  readBody,
  rpcError,
  rpcMethod,
} from "./_http.ts";
import { buildGatewayServer, type GatewaySession } from "./_gateway_mcp.ts";
import type { GatewayView } from "./_gateway_view.ts";
import type { CallSettings } from "./_gateway_call.ts";
import type { GatewayServer, ServeGatewayOptions } from "./gateway_types.ts";

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const CLOSE_GRACE_MS = 2_000;
/** Most open sessions per user; the oldest is closed past it. */
const MAX_SESSIONS = 64;

/** Who a request's token names: `undefined` when it names nobody (401). */
export type Authenticate = (authorization: string | undefined) => string | undefined;

/** The users' tokens as an authenticator (each compared in constant time); one user when no tokens. */
export function authenticator(options: ServeGatewayOptions): Authenticate {
  if (options.users !== undefined) {
    const checks = Object.entries(options.users.tokens).map(([token, user]) => {
      if (token === "") {
        throw new TypeError("Cannot serve the gateway: users.tokens has an empty token");
      }
      return { check: bearerCheck(token), user };
    });
    return (header) => {
      let found: string | undefined;
      for (const { check, user } of checks) if (check(header)) found ??= user;
      return found;
    };
  }
  if (options.token === undefined) return () => "";
  const check = bearerCheck(options.token);
  return (header) => (check(header) ? "" : undefined);
}

interface Open {
  user: string;
  session: GatewaySession;
  transport: StreamableHTTPServerTransport;
}

/** Serve `viewOf(user)` over HTTP. */
export async function serveHttp(
  options: ServeGatewayOptions,
  viewOf: (user: string) => Promise<GatewayView>,
  settings: CallSettings,
  shutdown: () => Promise<void>,
  refresh: () => Promise<void>,
): Promise<GatewayServer> {
  const host = options.host ?? "127.0.0.1";
  const checkHost = isLoopback(host);
  const authenticate = authenticator(options);
  const open = new Map<string, Open>();

  const handle = async (req: IncomingMessage, res: ServerResponse, note: (rpc: string) => void) => {
    const path = (req.url ?? "/").split("?")[0];
    const origin = req.headers.origin;
    if (!originAllowed(origin, options.allowedOrigins)) {
      return rpcError(res, 403, `Forbidden: origin ${origin} is not allowed`);
    }
    if (checkHost && !hostAllowed(req.headers.host)) {
      return rpcError(res, 403, "Forbidden: host is not allowed");
    }
    const cors = corsHeaders(origin);
    if (path !== "/mcp") return rpcError(res, 404, "Not found: the MCP endpoint is /mcp", cors);
    if (req.method === "OPTIONS") {
      return preflight(res, origin, req.headers["access-control-request-headers"]);
    }
    const user = authenticate(req.headers.authorization);
    if (user === undefined) {
      const headers = { ...cors, "WWW-Authenticate": 'Bearer realm="skillmux"' };
      return rpcError(res, 401, "Unauthorized: send Authorization: Bearer <token>", headers);
    }
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req, MAX_BODY_BYTES);
      if (text === undefined) return rpcError(res, 413, "Request body too large", cors);
      try {
        body = JSON.parse(text);
      } catch {
        return rpcError(res, 400, "Parse error", cors, -32700);
      }
    }
    const rpc = rpcMethod(body);
    if (rpc !== undefined) note(rpc);
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const found = open.get(id);
      // Another user's session is answered exactly like one that does not exist.
      if (found === undefined || found.user !== user) {
        return rpcError(res, 404, "Session not found", cors, -32001);
      }
      if (req.method === "POST") acceptsJsonOnly(req);
      // A change may have come before the stream opened (the SDK drops what no stream carries).
      if (req.method === "GET") setTimeout(() => found.session.streamOpened(), 50);
      return await found.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || rpc !== "initialize") {
      return rpcError(res, 400, "Bad Request: No valid session ID provided", cors);
    }
    const view = await viewOf(user);
    const session = buildGatewayServer(view, options.discover === true, settings);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: acceptsJsonOnly(req),
      onsessioninitialized: (sessionId) => {
        open.set(sessionId, { user, session, transport });
        const mine = [...open.entries()].filter(([, o]) => o.user === user);
        if (mine.length > MAX_SESSIONS) void mine[0][1].transport.close().catch(() => {});
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) open.delete(transport.sessionId);
      session.dispose();
      session.mcp.close().catch(() => {});
    };
    await session.mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    let rpc = "-";
    res.on("close", () => {
      const ms = (performance.now() - started).toFixed(1);
      const path = (req.url ?? "/").split("?")[0];
      options.log?.(`${req.method} ${path} ${rpc} ${res.statusCode} ${ms}ms`);
    });
    handle(req, res, (method) => (rpc = method)).catch(() => {
      if (!res.headersSent) rpcError(res, 500, "Internal error", {}, -32603);
      else res.destroy();
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  let finished!: () => void;
  const closed = new Promise<void>((done) => (finished = done));
  return {
    url: `http://${shown}:${port}/mcp`,
    closed,
    refresh,
    close(): Promise<void> {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections?.();
        const sessions = [...open.values()];
        open.clear();
        await Promise.all(sessions.map((o) => o.transport.close().catch(() => {})));
        const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref?.());
        await Promise.race([stopped, grace]);
        for (const socket of sockets) socket.destroy();
        await stopped;
        await shutdown();
        finished();
      })();
      return closing;
    },
  };
}
