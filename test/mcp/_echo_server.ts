// A real MCP server over HTTP (node:http on 127.0.0.1:0; Node and Deno) that answers one method
// with a JSON-RPC error echoing the credentials it received — the Authorization header, the bare
// token, the X-Api-Key header — in `message` and in `data` (plain, URL- and JSON-encoded, as an
// object key), the way careless servers do ("invalid api key sk-live-…").
//
//   const server = await startEchoServer({ era: "legacy", form: "sse", failOn: "tools/list" });
//
// `era`: `legacy` answers `server/discover` with the SDK's 400 and speaks initialize (2025-11-25);
// `modern` answers `server/discover` (2026-07-28, stateless). `form` is how the echo arrives:
//   json      an error response with the request's id, as JSON
//   sse       the same inside an SSE answer, after a `notifications/message` log echoing too
//   idless    an error response with id null
//   http      HTTP 401 with the echo in the reason phrase and a JSON-RPC error body
//   text      HTTP 200 `application/json` whose body starts with the token: not JSON
//   legacy    a 2024-11-05 HTTP+SSE server: GET opens the stream, POSTs are answered on it
//   stream    2025-11-25 with a standalone GET event stream that carries a log notification
//             echoing the credentials (and stays open)
//   padded    HTTP 500, a text body of 4,080 spaces then the token: the 4 KiB the client reads
//             of an error body ends inside the token
//   log       `tools/list` succeeds, with a tool named after the token and an invalid
//             `x-mcp-header` annotation (a modern client logs that it left the tool out)

import http from "node:http";
import { readBody } from "./_fault_server.ts";
import { listenLocal } from "./_servers.ts";

/** How the echo is delivered (see the top of this file). */
export type EchoForm =
  | "json"
  | "sse"
  | "idless"
  | "http"
  | "text"
  | "legacy"
  | "stream"
  | "padded"
  | "log";

/** Options of {@linkcode startEchoServer}. */
export interface EchoOptions {
  era?: "legacy" | "modern";
  form?: EchoForm;
  /** The method answered with the echo (default `tools/list`); `*`: every method but the handshake. */
  failOn?: string;
}

/** A running echo server. */
export interface EchoServer {
  url: string;
  /** How many times the echo was sent. */
  echoes: number;
  close(): Promise<void>;
}

type Rpc = { id?: unknown; method?: string };

let started = 0;

/** The credentials a request carried. */
function credentials(headers: http.IncomingHttpHeaders) {
  const authorization = String(headers.authorization ?? "");
  const token = authorization.replace(/^Bearer\s+/i, "");
  const apiKey = String(headers["x-api-key"] ?? "");
  return { authorization, token, apiKey };
}

/** The echoing message and data for a request with these headers. */
export function echoOf(headers: http.IncomingHttpHeaders): { message: string; data: unknown } {
  const { authorization, token, apiKey } = credentials(headers);
  return {
    message: `invalid api key ${token} (sent "${authorization}", x-api-key ${apiKey})`,
    data: {
      received: { authorization, "x-api-key": apiKey },
      token,
      urlEncoded: encodeURIComponent(token),
      jsonEncoded: JSON.stringify(token),
      retry: `https://auth.example/retry?key=${encodeURIComponent(token)}&h=${apiKey}`,
      [token]: "the key as an object key",
      nested: [{ deeper: { token, apiKey } }],
    },
  };
}

const RESULTS: Record<string, unknown> = {
  initialize: {
    protocolVersion: "2025-11-25",
    capabilities: { tools: {}, resources: {}, logging: {} },
    serverInfo: { name: "echo", version: "1" },
  },
  "server/discover": {
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {}, resources: {} },
    serverInfo: { name: "echo", version: "1" },
  },
  "tools/list": { tools: [] },
  "resources/list": { resources: [] },
  "resources/templates/list": { resourceTemplates: [] },
  "prompts/list": { prompts: [] },
};

/** Start an echo server (see the top of this file). */
export async function startEchoServer(options: EchoOptions = {}): Promise<EchoServer> {
  const era = options.era ?? "legacy";
  const form = options.form ?? "json";
  const failOn = options.failOn ?? "tools/list";
  const streams: http.ServerResponse[] = [];
  const server: EchoServer = { url: "", echoes: 0, close: () => Promise.resolve() };

  const echoes = (method: string | undefined) =>
    method === failOn ||
    (failOn === "*" && method !== "initialize" && method !== "server/discover");
  const answer = (rpc: Rpc, headers: http.IncomingHttpHeaders): unknown => {
    const method = rpc.method ?? "";
    if (echoes(method) && form !== "log") {
      server.echoes++;
      const { message, data } = echoOf(headers);
      return {
        jsonrpc: "2.0",
        id: form === "idless" ? null : rpc.id,
        error: { code: -32001, message, data },
      };
    }
    let result = RESULTS[method] ?? {};
    if (method === "tools/list" && form === "log") {
      server.echoes++;
      const { token } = credentials(headers);
      result = {
        tools: [{
          name: token,
          inputSchema: {
            type: "object",
            properties: { q: { type: "object", "x-mcp-header": "X-Q" } },
          },
        }],
      };
    }
    return { jsonrpc: "2.0", id: rpc.id, result };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    if (form === "legacy" && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("event: endpoint\ndata: /messages?sessionId=echo\n\n");
      streams.push(res);
      return;
    }
    if (form === "stream" && req.method === "GET") {
      const { message, data } = echoOf(req.headers);
      server.echoes++;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const log = {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "error", logger: "auth", data: { message, data } },
      };
      res.write(`event: message\ndata: ${JSON.stringify(log)}\n\n`);
      streams.push(res);
      return;
    }
    if (req.method !== "POST") return void res.writeHead(405).end();
    let rpc: Rpc;
    try {
      rpc = JSON.parse(body);
    } catch {
      return void res.writeHead(400).end();
    }
    if (rpc.id === undefined) return void res.writeHead(202).end();
    if (rpc.method === "server/discover" && era === "legacy") {
      res.writeHead(400, { "content-type": "application/json" });
      return void res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "Bad Request: Unsupported protocol version" },
      }));
    }
    const echo = echoes(rpc.method);
    if (form === "legacy") {
      res.writeHead(202).end("Accepted");
      const stream = streams[streams.length - 1];
      stream?.write(`event: message\ndata: ${JSON.stringify(answer(rpc, req.headers))}\n\n`);
      return;
    }
    if (echo && form === "http") {
      server.echoes++;
      const { message, data } = echoOf(req.headers);
      const { token } = credentials(req.headers);
      res.writeHead(401, `Unauthorized ${token}`, { "content-type": "application/json" });
      return void res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32001, message, data },
      }));
    }
    if (echo && form === "padded") {
      server.echoes++;
      res.writeHead(500, { "content-type": "text/plain" });
      return void res.end(`${" ".repeat(4080)}${credentials(req.headers).token} was refused`);
    }
    if (echo && form === "text") {
      server.echoes++;
      // The token first: a JSON parse error quotes the start of the text.
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(`${credentials(req.headers).token} is not a valid api key`);
    }
    const payload = JSON.stringify(answer(rpc, req.headers));
    if (echo && form === "sse") {
      const { message, data } = echoOf(req.headers);
      const log = {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "error", logger: "auth", data: { message, data } },
      };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`event: message\ndata: ${JSON.stringify(log)}\n\n`);
      res.write(`event: message\ndata: ${payload}\n\n`);
      return void res.end();
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(payload);
  };

  const listening = await listenLocal(
    http.createServer((req, res) => void handle(req, res).catch(() => res.destroy())),
  );
  // A fresh path per server: connect() remembers what it learnt per URL, and ports are reused.
  server.url = `http://127.0.0.1:${listening.port}/mcp/${++started}`;
  server.close = async () => {
    for (const stream of streams) stream.destroy();
    await listening.close();
  };
  return server;
}
