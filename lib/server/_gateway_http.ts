// Private: the gateway over Streamable HTTP at `/mcp`, with sessions (`Mcp-Session-Id`: progress,
// cancellation and `list_changed` need a session). The edge is the skills server's: Origin and
// Host checks, CORS, the bearer token. With many users each token names one user; a session
// belongs to the user who opened it and answers 404 to any other user's token.

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { admit, listen } from "./_endpoint.ts";
import { acceptsJsonOnly, bearerCheck, rpcError } from "./_http.ts";
import { InFlight } from "./_in_flight.ts";
import { buildGatewayServer, type GatewaySession } from "./_gateway_mcp.ts";
import type { GatewayView } from "./_gateway_view.ts";
import type { CallSettings } from "./_gateway_call.ts";
import type { GatewayServer, ServeGatewayOptions } from "./gateway_types.ts";

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
  /** Its requests' ids in flight: one reused while in flight is refused. */
  inFlight: InFlight;
}

/** Serve `viewOf(user)` over HTTP. */
export async function serveHttp(
  options: ServeGatewayOptions,
  viewOf: (user: string) => Promise<GatewayView>,
  settings: CallSettings,
  shutdown: () => Promise<void>,
  refresh: () => Promise<void>,
): Promise<Omit<GatewayServer, "pins">> {
  const host = options.host ?? "127.0.0.1";
  const gate = {
    host,
    allowedOrigins: options.allowedOrigins,
    authenticate: authenticator(options),
  };
  const open = new Map<string, Open>();

  const handle = async (req: IncomingMessage, res: ServerResponse, note: (rpc: string) => void) => {
    const admitted = await admit(req, res, gate);
    if (admitted === undefined) return;
    const { user, body, rpc, cors } = admitted;
    if (rpc !== undefined) note(rpc);
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const found = open.get(id);
      // Another user's session is answered exactly like one that does not exist.
      if (found === undefined || found.user !== user) {
        return rpcError(res, 404, "Session not found", cors, -32001);
      }
      if (req.method === "POST") {
        acceptsJsonOnly(req);
        if (!found.inFlight.admit(body, res, cors)) return;
      }
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
        open.set(sessionId, { user, session, transport, inFlight: new InFlight() });
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

  const listening = await listen(handle, { host, port: options.port, log: options.log });
  return {
    url: listening.url,
    // One user's view: the single user's, or (with users) the first token's user.
    skills: async () =>
      await (await viewOf(options.users ? Object.values(options.users.tokens)[0] : "")).skills
        .served(),
    closed: listening.closed,
    refresh,
    close: () =>
      listening.close(async () => {
        const sessions = [...open.values()];
        open.clear();
        await Promise.all(sessions.map((o) => o.transport.close().catch(() => {})));
      }, shutdown),
  };
}
