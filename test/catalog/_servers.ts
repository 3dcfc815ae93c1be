// Servers for the catalog and prompt tests, on 127.0.0.1 port 0:
//
// startToolServer({ tools }) → { url, tools, calls, close() }
//   The MCP SDK's McpServer over stateless Streamable HTTP (JSON answers) whose tools/list
//   answers with the current `tools` array: tests change a description between listings, as a
//   server that "rug-pulls" would. tools/call answers `<name>: <JSON arguments>` (or the tool's
//   `content`, when it has one) and records the tool's name in `calls`.
//
// startFakeLlm(answer, { cors }) → { url, requests, close() }
//   One HTTP server speaking both OpenAI chat completions (POST /v1/chat/completions) and
//   Anthropic Messages (POST /v1/messages). `answer(request)` returns (or resolves to)
//   { status, headers, body } (the body as text); a promise that never settles is a model that
//   hangs. Every request is recorded with its path, headers and parsed JSON body (a body that is
//   not JSON is kept as { raw }). `cors: true` lets a page on any origin call it, as the
//   providers' browser access does: preflights are answered (and not recorded) allowing the
//   headers the adapters send, and answers carry Access-Control-Allow-Origin.

import http from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenLocal } from "../mcp/_servers.ts";

/** A tool as the test server lists it. */
export interface TestTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties?: Record<string, unknown>; required?: string[] };
  /** What tools/call answers (default: one text block, `<name>: <JSON arguments>`). */
  content?: Array<{ type: "text"; text: string }>;
}

/** The request body; undefined when the client dropped the connection before sending it all. */
async function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch {
    return undefined; // aborted by the client: nothing to answer, and no crash of the test file
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Start a tool server whose `tools` can change between listings. */
export async function startToolServer(tools: TestTool[]) {
  const calls: string[] = [];
  const server = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const text = await readBody(req);
    if (text === undefined) return;
    const body = JSON.parse(text);
    const mcp = new McpServer({ name: "tool-test", version: "1.0.0" }, {
      capabilities: { tools: {} },
    });
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    mcp.server.setRequestHandler(
      CallToolRequestSchema,
      (request) => (calls.push(request.params.name), {
        content: tools.find((t) => t.name === request.params.name)?.content ?? [{
          type: "text",
          text: `${request.params.name}: ${JSON.stringify(request.params.arguments ?? {})}`,
        }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      transport.close().catch(() => {});
      mcp.close().catch(() => {});
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}/mcp`, tools, calls, close: listening.close };
}

/** One request the fake LLM received. */
export interface LlmRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What the fake LLM answers. */
export interface LlmAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

/** Options of {@link startFakeLlm}. */
export interface FakeLlmOptions {
  /** Answer CORS preflights and allow any origin (for browser tests). */
  cors?: boolean;
}

/** The request headers a page may send the fake LLM: what the two adapters set. */
const LLM_CORS_HEADERS =
  "content-type, authorization, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access";

/** Start a fake OpenAI + Anthropic API. */
export async function startFakeLlm(
  answer: (request: LlmRequest, n: number) => LlmAnswer | Promise<LlmAnswer>,
  options: FakeLlmOptions = {},
) {
  const requests: LlmRequest[] = [];
  const cors: Record<string, string> = options.cors ? { "access-control-allow-origin": "*" } : {};
  const server = http.createServer(async (req, res) => {
    if (options.cors && req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": LLM_CORS_HEADERS,
      });
      return void res.end();
    }
    const text = await readBody(req);
    if (text === undefined) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text || "{}");
    } catch {
      body = { raw: text };
    }
    const request = { path: req.url ?? "", headers: req.headers, body };
    requests.push(request);
    const out = await answer(request, requests.length);
    res.writeHead(out.status ?? 200, {
      "content-type": "application/json",
      ...cors,
      ...out.headers,
    });
    res.end(out.body);
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}`, requests, close: listening.close };
}

/** An OpenAI chat-completions answer whose message content is `content`. */
export function openAiAnswer(content: string): LlmAnswer {
  return {
    body: JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      model: "test",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    }),
  };
}

/** An Anthropic Messages answer whose one text block is `text`. */
export function anthropicAnswer(text: string): LlmAnswer {
  return {
    body: JSON.stringify({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "test",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
    }),
  };
}
