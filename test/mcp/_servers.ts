// Real MCP servers for network tests, on 127.0.0.1 port 0. Runs under Node and Deno.
//
// startSdkServer(options) → { url, close(), requests }
//   The MCP SDK's McpServer + StreamableHTTPServerTransport on node:http.
//   - stateful: false (default) → a new server and transport per POST
//     (`sessionIdGenerator: undefined`; GET/DELETE answer 405);
//     true → sessions keyed by Mcp-Session-Id; an unknown id gets 404
//     (`-32001 Session not found`), a non-initialize POST without one gets 400
//     (`No valid session ID provided`), DELETE ends the session.
//   - json: true → `enableJsonResponse` (JSON answers instead of SSE).
//   - skills: { name: markdown } → resources `skill://<name>` (text/markdown, name, the
//     front matter's `description`), plus the template `skill://{name}`.
//   - unlisted: { name: markdown } → readable through the template only (not listed).
//   - tools: N → N extra tools `dummy-1…N` besides `echo` ({ text }) and `add` ({ a, b }).
//   - marks: true → a tool `mark` ({ marker, steps }) that sends `steps` progress notifications
//     (message: the marker) 0–20 ms apart to the caller's progress token, then answers the marker:
//     what a test needs to see whose progress and answer reached whom.
//   - pageSize: N → tools/list and resources/list return N items per page with `nextCursor`.
//   - cors: true → answers preflights and allows any origin (for browser clients).
//   - guard: (req, res) => boolean sees each request first (OAuth protection in _oauth_server.ts).
//   - requests: every HTTP request as { method, rpc, sessionId } (rpc = JSON-RPC method,
//     or undefined for responses, GET and DELETE), to count round trips.
//
// startEverything("streamableHttp" | "sse") → { url, close() }
//   `@modelcontextprotocol/server-everything` in a child `node` process with PORT=0, bound to
//   127.0.0.1 by ./_listen_preload.mjs. url is `/mcp` (streamableHttp) or `/sse` (legacy).
//   The child is killed on close() and when the test process exits.

import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

/** Options of {@linkcode startSdkServer}. */
export interface SdkServerOptions {
  stateful?: boolean;
  json?: boolean;
  skills?: Record<string, string>;
  /** Skills readable through the `skill://{name}` template only: not in resources/list. */
  unlisted?: Record<string, string>;
  pageSize?: number;
  tools?: number;
  /** Answer CORS preflights and allow any origin, as a server meant for browser clients does. */
  cors?: boolean;
  /** Add a `plan` tool with a nested input schema that answers its arguments back. */
  nested?: boolean;
  /** Add the `mark` tool: progress carrying a marker, then the marker (see above). */
  marks?: boolean;
  /** Sees every request first; `true` when it answered (e.g. a 401 of an OAuth-protected server). */
  guard?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
}

/** One HTTP request the SDK server received. */
export interface RecordedRequest {
  method: string;
  rpc?: string;
  sessionId?: string;
}

/** A running server. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** A running SDK server. */
export interface SdkServer extends TestServer {
  requests: RecordedRequest[];
}

function describeSkill(text: string): string {
  return /^description:\s*(.+)$/m.exec(text)?.[1]?.trim() ?? text.split("\n")[0].slice(0, 100);
}

function page<T>(
  items: T[],
  cursor: unknown,
  size: number | undefined,
): { items: T[]; nextCursor?: string } {
  if (size === undefined) return { items };
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
  }
  const end = start + size;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: String(end) } : {}),
  };
}

function buildServer(options: SdkServerOptions): McpServer {
  const mcp = new McpServer(
    { name: "skillmux-test", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  const skills = Object.entries(options.skills ?? {});
  const listed = skills.map(([name, text]) => ({
    uri: `skill://${name}`,
    name,
    description: describeSkill(text),
    mimeType: "text/markdown",
  }));
  for (const [name, text] of skills) {
    mcp.registerResource(
      name,
      `skill://${name}`,
      { description: describeSkill(text), mimeType: "text/markdown" },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text }] }),
    );
  }
  mcp.registerResource(
    "skill",
    new ResourceTemplate("skill://{name}", { list: undefined }),
    { description: "A skill by name", mimeType: "text/markdown" },
    (uri, { name }) => {
      const text = options.skills?.[String(name)] ?? options.unlisted?.[String(name)];
      if (text === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`);
      }
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text }] };
    },
  );
  if (options.pageSize !== undefined) {
    mcp.server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const { items, nextCursor } = page(listed, request.params?.cursor, options.pageSize);
      return { resources: items, ...(nextCursor ? { nextCursor } : {}) };
    });
  }
  const tools = [
    {
      name: "echo",
      description: "Echo the text back",
      inputSchema: {
        type: "object" as const,
        properties: { text: { type: "string" } },
        required: ["text"],
      },
    },
    {
      name: "add",
      description: "Add two numbers",
      inputSchema: {
        type: "object" as const,
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
    ...(options.nested ? [PLAN_TOOL] : []),
    ...(options.marks ? [MARK_TOOL] : []),
    ...Array.from({ length: options.tools ?? 0 }, (_, i) => ({
      name: `dummy-${i + 1}`,
      description: `Dummy tool ${i + 1}`,
      inputSchema: { type: "object" as const, properties: {} },
    })),
  ];
  mcp.server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const { items, nextCursor } = page(tools, request.params?.cursor, options.pageSize);
    return { tools: items, ...(nextCursor ? { nextCursor } : {}) };
  });
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const name = request.params.name;
    if (name === "mark" && options.marks) {
      const token = request.params._meta?.progressToken;
      for (let step = 1; step <= Number(args.steps ?? 0); step++) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        if (token === undefined) continue;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, message: String(args.marker) },
        });
      }
      return { content: [{ type: "text", text: String(args.marker) }] };
    }
    if (name === "echo") return { content: [{ type: "text", text: String(args.text) }] };
    if (name === "add") {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
    }
    if (name === "plan") {
      return { content: [{ type: "text", text: JSON.stringify(args) }], structuredContent: args };
    }
    if (tools.some((tool) => tool.name === name)) {
      return { content: [{ type: "text", text: name }] };
    }
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  return mcp;
}

/** Progress carrying a marker, then the marker. */
const MARK_TOOL = {
  name: "mark",
  description: "Report progress with a marker, then answer it",
  inputSchema: {
    type: "object" as const,
    properties: { marker: { type: "string" }, steps: { type: "number" } },
    required: ["marker"],
  },
};

/** A tool whose input schema nests an object with an array, a nullable default and a titled oneOf. */
const PLAN_TOOL = {
  name: "plan",
  description: "Plan an alignment run",
  inputSchema: {
    type: "object" as const,
    properties: {
      sample: {
        type: "object",
        title: "Sample",
        properties: {
          id: { type: "string" },
          reads: { type: "array", items: { type: "string" } },
          paired: { type: "boolean", default: true },
        },
        required: ["id"],
      },
      threads: { type: ["integer", "null"], default: 4 },
      mode: { oneOf: [{ const: "fast", title: "Fast" }, { const: "exact", title: "Exact" }] },
    },
    required: ["sample"],
  },
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function rpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Listen on 127.0.0.1:0; `close` destroys every open socket. */
export async function listenLocal(
  server: http.Server,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  // A client that drops its connection mid-request (its timeout, an abort, a closed CLI) makes the
  // request emit "aborted" as an error: without a listener that crashes the whole test file (Deno).
  server.on("request", (req: http.IncomingMessage) => req.on("error", () => {}));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Start the MCP SDK's Streamable HTTP server (see the top of this file). */
export async function startSdkServer(options: SdkServerOptions = {}): Promise<SdkServer> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sessionId = req.headers["mcp-session-id"] as string | undefined;
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req);
      try {
        body = JSON.parse(text);
      } catch {
        requests.push({ method: "POST", sessionId });
        return rpcError(res, 400, -32700, "Parse error");
      }
    }
    const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown } | undefined;
    const rpc = typeof first?.method === "string" ? first.method : undefined;
    requests.push({ method: req.method ?? "", rpc, sessionId });
    if (!options.stateful) {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const mcp = buildServer(options);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: options.json === true,
      });
      res.on("close", () => {
        transport.close().catch(() => {});
        mcp.close().catch(() => {});
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return rpcError(res, 404, -32001, "Session not found");
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || rpc !== "initialize") {
      return rpcError(res, 400, -32000, "Bad Request: No valid session ID provided");
    }
    const mcp = buildServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.json === true,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      mcp.close().catch(() => {});
    };
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const server = http.createServer((req, res) => {
    if (options.cors) {
      res.setHeader("access-control-allow-origin", "*");
      res.setHeader("access-control-expose-headers", "mcp-session-id, www-authenticate");
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
          "access-control-allow-headers":
            "content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id, x-team",
          "access-control-max-age": "60",
        }).end();
        return;
      }
    }
    if (options.guard?.(req, res)) return;
    handle(req, res).catch(() => {
      if (!res.headersSent) rpcError(res, 500, -32603, "Internal error");
      else res.destroy();
    });
  });
  const listening = await listenLocal(server);
  return {
    url: `http://127.0.0.1:${listening.port}/mcp`,
    requests,
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      sessions.clear();
      await listening.close();
    },
  };
}

const EVERYTHING = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);
const PRELOAD = new URL("./_listen_preload.mjs", import.meta.url).href;
const STARTUP_MS = 15_000;

/** Start `@modelcontextprotocol/server-everything` in a child process (see the top of this file). */
export async function startEverything(mode: "streamableHttp" | "sse"): Promise<TestServer> {
  const child: ChildProcess = spawn("node", ["--import", PRELOAD, EVERYTHING, mode], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.on("exit", kill);
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `server-everything (${mode}) did not report a port within ${STARTUP_MS} ms:\n${stderr}`,
        ),
      );
    }, STARTUP_MS);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
      const match = /SKILLMUX_LISTENING (\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new Error(`server-everything (${mode}) exited with ${code} before listening:\n${stderr}`),
      );
    });
  }).catch((error) => {
    kill();
    process.off("exit", kill);
    throw error;
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    async close() {
      process.off("exit", kill);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(kill, 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
