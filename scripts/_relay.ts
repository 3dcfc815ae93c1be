/**
 * The loopback relay `npm start` runs so the playground can reach MCP servers that send no CORS
 * headers. It is not an open proxy:
 *
 * - it listens on 127.0.0.1 only, and the `Host` of each request must be exactly its own
 *   `127.0.0.1:<port>` (a DNS-rebinding page has another Host);
 * - `Origin` must be exactly one of the playground's origins (a browser always sends it on a
 *   cross-origin request; curl and other pages send none or another);
 * - every request but a CORS preflight carries the per-run random token in
 *   `X-Skillmux-Relay-Token`, which the page reads from `/playground.json` on its own origin;
 * - it forwards only to targets the page registered with that token (`POST /targets`
 *   `{"url": "https://…"}` answers the route `/t/<id>`); any other path is refused.
 *
 * With `stdio: true` (`RELAY_STDIO=1 npm start`) it also starts stdio servers the page registered
 * with that token (`POST /stdio` `{"command", "args", "env"}` answers the route `/s/<id>`, which
 * speaks Streamable HTTP; one child per session, ended by DELETE of the session, by
 * `DELETE /stdio/<id>` and when the relay closes; see scripts/_relay_stdio.ts). Off, `POST /stdio`
 * is refused with 403 and nothing is started.
 *
 * A refusal answers before anything reaches a target: 421 wrong Host, 403 wrong Origin, 401
 * missing or wrong token, 403 a route nobody registered; the body is JSON `{ "error": … }`.
 * Forwarded: the MCP request headers, the body, the status, the MCP answer headers and the body
 * streamed (SSE included); redirects are not followed; the upstream request is aborted when the
 * page goes away. Only CORS for the playground's origins is added.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { describeCommand, parseCommand, StdioRoutes } from "./_relay_stdio.ts";

/** Request headers passed on to the target (lower case). */
const REQUEST_HEADERS = [
  "accept",
  "authorization",
  "content-type",
  "last-event-id",
  "mcp-method",
  "mcp-name",
  "mcp-protocol-version",
  "mcp-session-id",
];
/** Answer headers passed back to the page. */
const ANSWER_HEADERS = [
  "cache-control",
  "content-type",
  "mcp-protocol-version",
  "mcp-session-id",
  "retry-after",
  "www-authenticate",
];
export const TOKEN_HEADER = "x-skillmux-relay-token";
const MAX_BODY = 4 * 1024 * 1024;

/** Options of {@linkcode startRelay}. */
export interface RelayOptions {
  /** The playground's origins, e.g. `http://127.0.0.1:5173`: the only ones served. */
  origins: readonly string[];
  /** Port on 127.0.0.1; 0 (default) for any free one. */
  port?: number;
  /** Start the stdio servers the page registers (default false: `POST /stdio` is refused). */
  stdio?: boolean;
  /** How long a stdio session (and a route's spare process) may sit idle; default 10 minutes. */
  stdioIdleMs?: number;
  /** How long a stdio server may take to start (answer the relay's ping); default 60 s. */
  stdioStartupMs?: number;
  /** Receives a line for each stdio command registered: exactly what will run (npm start prints it). */
  log?: (line: string) => void;
}

/** A running relay. */
export interface Relay {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The per-run token the page must send in `X-Skillmux-Relay-Token`. */
  token: string;
  /** Whether it starts stdio servers. */
  stdio: boolean;
  /** How many stdio children serve sessions now. */
  children(): number;
  /** How many stdio processes it started in all, spares included. */
  started(): number;
  close(): Promise<void>;
}

/** Start the relay on 127.0.0.1. */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  const token = randomBytes(32).toString("base64url");
  const targets = new Map<string, string>();
  const stdio = new StdioRoutes({
    idleMs: options.stdioIdleMs,
    startupMs: options.stdioStartupMs,
    log: options.log,
  });
  let host = "";
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) {
        refuse(res, 502, `relay: ${(error as Error).message}`, req.headers.origin);
      } else res.destroy();
    });
  });

  function refuse(res: ServerResponse, status: number, error: string, origin?: string): void {
    res.writeHead(status, { "content-type": "application/json", ...cors(origin) });
    res.end(JSON.stringify({ error }));
  }
  function cors(origin: string | undefined): Record<string, string> {
    if (origin === undefined || !options.origins.includes(origin)) return {};
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
      vary: "Origin",
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    if (req.headers.host !== host) {
      return refuse(res, 421, `relay: Host must be ${host}, got ${req.headers.host ?? "none"}`);
    }
    if (origin === undefined || !options.origins.includes(origin)) {
      return refuse(
        res,
        403,
        `relay: Origin must be the playground's (${options.origins[0]}), got ${origin ?? "none"}`,
      );
    }
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors(origin),
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": [...REQUEST_HEADERS, TOKEN_HEADER].join(", "),
        "access-control-max-age": "600",
      });
      return void res.end();
    }
    const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? ""));
    if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) {
      return refuse(
        res,
        401,
        `relay: missing or wrong ${TOKEN_HEADER} (the page gets it from npm start)`,
        origin,
      );
    }
    const path = new URL(req.url ?? "/", "http://relay").pathname;
    if (path === "/targets" && req.method === "POST") return await register(req, res, origin);
    if (path === "/stdio" || path.startsWith("/stdio/") || path.startsWith("/s/")) {
      return await stdioRoute(req, res, origin, path);
    }
    const target = path.startsWith("/t/") ? targets.get(path.slice(3)) : undefined;
    if (target === undefined) {
      return refuse(
        res,
        403,
        `relay: ${path} is not a server the page added (POST /targets first)`,
        origin,
      );
    }
    return await forward(req, res, origin, target);
  }

  async function register(
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
  ): Promise<void> {
    let url: URL;
    try {
      url = new URL(JSON.parse((await readBody(req)).toString("utf8")).url);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    } catch {
      return refuse(res, 400, `relay: POST /targets expects {"url": "http(s)://…"}`, origin);
    }
    const id = createHash("sha256").update(url.href).digest("base64url").slice(0, 16);
    targets.set(id, url.href);
    res.writeHead(201, { "content-type": "application/json", ...cors(origin) });
    res.end(JSON.stringify({ url: `http://${host}/t/${id}`, target: url.href }));
  }

  async function stdioRoute(
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    path: string,
  ): Promise<void> {
    if (!options.stdio) {
      return refuse(
        res,
        403,
        "relay: this npm start does not start stdio servers (start it with RELAY_STDIO=1)",
        origin,
      );
    }
    if (path === "/stdio" && req.method === "POST") {
      let command;
      try {
        command = parseCommand(JSON.parse((await readBody(req)).toString("utf8")));
      } catch (error) {
        return refuse(res, 400, `relay: POST /stdio: ${(error as Error).message}`, origin);
      }
      options.log?.(describeCommand(command));
      const id = stdio.register(command);
      // Answered once its process is ready (or could not start, within its start-up allowance),
      // so that the page's sessions find one waiting.
      const state = await stdio.ready(id);
      res.writeHead(201, { "content-type": "application/json", ...cors(origin) });
      return void res.end(JSON.stringify({ url: `http://${host}/s/${id}`, ...state }));
    }
    if (path.startsWith("/stdio/") && req.method === "DELETE") {
      const known = stdio.unregister(path.slice(7));
      res.writeHead(known ? 204 : 404, cors(origin));
      return void res.end();
    }
    let body: unknown;
    if (req.method === "POST") {
      try {
        body = JSON.parse((await readBody(req)).toString("utf8"));
      } catch {
        return refuse(res, 400, "relay: the body is not JSON", origin);
      }
    }
    for (const [name, value] of Object.entries(cors(origin))) res.setHeader(name, value);
    if (!path.startsWith("/s/") || !(await stdio.handle(path.slice(3), req, res, body))) {
      return refuse(res, 403, `relay: ${path} is not a stdio server the page added`, origin);
    }
  }

  async function forward(
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    target: string,
  ) {
    const headers: Record<string, string> = {};
    for (const name of REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const answer = await fetch(target, {
      method: req.method,
      headers,
      body: body === undefined ? undefined : new Uint8Array(body),
      redirect: "manual",
      signal: abort.signal,
    });
    const out: Record<string, string> = { ...cors(origin) };
    for (const name of ANSWER_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) out[name] = value;
    }
    res.writeHead(answer.status, out);
    res.flushHeaders();
    if (answer.body === null) return void res.end();
    const reader = answer.body.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        res.write(chunk.value);
      }
      res.end();
    } catch {
      res.destroy();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: `http://${host}`,
    token,
    stdio: options.stdio === true,
    children: () => stdio.running,
    started: () => stdio.started,
    close: async () => {
      await stdio.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** The request body, at most 4 MiB. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("request body over 4 MiB");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
