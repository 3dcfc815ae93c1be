// Private: what `serveSkills` and `serveGateway` share over HTTP: the checks every request of
// their /mcp endpoint passes first (Origin, Host, path, preflight, token, body), and the listener
// (a log line per request, sockets tracked, a close that drains, then cuts after a grace period).

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  corsHeaders,
  hostAllowed,
  isLoopback,
  originAllowed,
  preflight,
  readBody,
  rpcError,
  rpcMethod,
} from "./_http.ts";

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const CLOSE_GRACE_MS = 2_000;

/** Who may call the endpoint. */
export interface Gate {
  /** The address the server binds: on loopback, `Host` must name loopback too. */
  host: string;
  /** Browser origins allowed (default: loopback origins). */
  allowedOrigins?: readonly string[] | "*";
  /** The user a request's `Authorization` names, `""` for the one user, `undefined` for nobody. */
  authenticate: (authorization: string | undefined) => string | undefined;
}

/** A request that passed the checks: its user, parsed body, JSON-RPC method and CORS headers. */
export interface Admitted {
  user: string;
  body: unknown;
  rpc: string | undefined;
  cors: Record<string, string>;
}

/**
 * Check `req` in order (Origin, Host, path /mcp, preflight, token, a JSON body of at most 4 MiB)
 * and answer it when a check fails (then `undefined`); set the CORS headers when all pass.
 */
export async function admit(
  req: IncomingMessage,
  res: ServerResponse,
  gate: Gate,
): Promise<Admitted | undefined> {
  const path = (req.url ?? "/").split("?")[0];
  const origin = req.headers.origin;
  if (!originAllowed(origin, gate.allowedOrigins)) {
    return void rpcError(res, 403, `Forbidden: origin ${origin} is not allowed`);
  }
  if (isLoopback(gate.host) && !hostAllowed(req.headers.host)) {
    return void rpcError(res, 403, "Forbidden: host is not allowed");
  }
  const cors = corsHeaders(origin);
  if (path !== "/mcp") return void rpcError(res, 404, "Not found: the MCP endpoint is /mcp", cors);
  if (req.method === "OPTIONS") {
    return void preflight(res, origin, req.headers["access-control-request-headers"]);
  }
  const user = gate.authenticate(req.headers.authorization);
  if (user === undefined) {
    const headers = { ...cors, "WWW-Authenticate": 'Bearer realm="skillmux"' };
    return void rpcError(res, 401, "Unauthorized: send Authorization: Bearer <token>", headers);
  }
  for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
  let body: unknown;
  if (req.method === "POST") {
    const text = await readBody(req, MAX_BODY_BYTES);
    if (text === undefined) return void rpcError(res, 413, "Request body too large", cors);
    try {
      body = JSON.parse(text);
    } catch {
      return void rpcError(res, 400, "Parse error", cors, -32700);
    }
  }
  return { user, body, rpc: rpcMethod(body), cors };
}

/** A listening endpoint. */
export interface Listening {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  /** Settles once `close` has finished. */
  closed: Promise<void>;
  /**
   * Stop accepting, run `drain` (end sessions), wait for open requests up to a grace period,
   * cut the rest, then run `after`. Once: later calls return the first call's promise.
   */
  close(drain: () => Promise<void>, after?: () => Promise<void>): Promise<void>;
}

/**
 * Serve `handle` on `host:port` (port 0: a free one), logging `METHOD path rpc status ms` per
 * request through `log`; a handler that throws answers 500 (or cuts a started answer).
 */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, note: (rpc: string) => void) => Promise<void>,
  options: { host: string; port?: number; log?: (line: string) => void },
): Promise<Listening> {
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
    server.listen(options.port ?? 0, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  let finished!: () => void;
  const closed = new Promise<void>((done) => (finished = done));
  return {
    url: `http://${shown}:${port}/mcp`,
    closed,
    close(drain, after) {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections?.();
        await drain();
        const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref?.());
        await Promise.race([stopped, grace]);
        for (const socket of sockets) socket.destroy();
        await stopped;
        await after?.();
        finished();
      })();
      return closing;
    },
  };
}
