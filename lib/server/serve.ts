/**
 * `serveSkills`: a folder of skills (or any resolver) as a Streamable HTTP MCP server.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SkillCatalog } from "./_catalog.ts";
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
import { buildMcpServer } from "./_mcp.ts";
import { answerOwn, modernVersion, ownsLegacy } from "./_own.ts";
import { Sessions } from "./_sessions.ts";
import { serveStdio } from "./_stdio.ts";
import type { ServeSkillsOptions, SkillsServer } from "./types.ts";

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const POLL_MS = 1_000;
const CLOSE_GRACE_MS = 2_000;

/** Idle stateless MCP servers kept for reuse. */
const IDLE_SERVERS = 16;

/** The implementation of `serveSkills` (mod.ts loads this module lazily: see there). */
export async function serveSkills(options: ServeSkillsOptions = {}): Promise<SkillsServer> {
  if (options.transport === "stdio") return await serveStdio(options);
  if (options.transport !== undefined && options.transport !== "http") {
    throw new TypeError(
      `Cannot serve skills: transport must be "http" or "stdio", got ${
        JSON.stringify(options.transport)
      }`,
    );
  }
  if (options.token !== undefined && options.token === "") {
    throw new TypeError("Cannot serve skills: token must not be empty");
  }
  const host = options.host ?? "127.0.0.1";
  const catalog = new SkillCatalog(options);
  const idle: ReturnType<typeof buildMcpServer>[] = [];
  const sessions = options.sessions === true ? new Sessions(catalog, POLL_MS) : undefined;
  const authorized = options.token === undefined ? undefined : bearerCheck(options.token);
  const checkHost = isLoopback(host);

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
    if (authorized !== undefined && !authorized(req.headers.authorization)) {
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
    const message = (Array.isArray(body) ? undefined : body) as Parameters<typeof ownsLegacy>[0];
    const modern = req.method === "POST" ? modernVersion(req, message) : undefined;
    if (message !== undefined && (modern !== undefined || ownsLegacy(message))) {
      const answer = await answerOwn(catalog, req, message!, modern);
      if (answer.status === 202) return void res.writeHead(202).end();
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      return void res.end(JSON.stringify(answer.body));
    }
    if (sessions !== undefined) return await sessions.handle(req, res, body, rpc, cors);
    if (req.method !== "POST") {
      res.writeHead(405, { ...cors, Allow: "POST, OPTIONS" }).end();
      return;
    }
    // Stateless: a new transport per request (the SDK requires it), but servers are reused:
    // building one per request cost about a third of the throughput (bench/serve.ts).
    const mcp = idle.pop() ?? buildMcpServer(catalog);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: acceptsJsonOnly(req),
    });
    res.on("close", () => {
      transport.close().catch(() => {}).finally(() => {
        if (!mcp.isConnected() && idle.length < IDLE_SERVERS) idle.push(mcp);
        else mcp.close().catch(() => {});
      });
    });
    await mcp.connect(transport);
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
    close(): Promise<void> {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections?.();
        await sessions?.close();
        const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref?.());
        await Promise.race([stopped, grace]);
        for (const socket of sockets) socket.destroy();
        await stopped;
        finished();
      })();
      return closing;
    },
  };
}
