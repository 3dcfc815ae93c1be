// Servers for the catalog and prompt tests, on 127.0.0.1 port 0:
//
// startToolServer({ tools }) → { url, tools, close() }
//   The MCP SDK's McpServer over stateless Streamable HTTP (JSON answers) whose tools/list
//   answers with the current `tools` array: tests change a description between listings, as a
//   server that "rug-pulls" would. tools/call answers `<name>: <JSON arguments>`.
//
// startFakeLlm(answer) → { url, requests, close() }
//   One HTTP server speaking both OpenAI chat completions (POST /v1/chat/completions) and
//   Anthropic Messages (POST /v1/messages). `answer(request)` returns { status, headers, body }
//   (the body as text); every request is recorded with its path, headers and parsed JSON body.

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
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Start a tool server whose `tools` can change between listings. */
export async function startToolServer(tools: TestTool[]) {
  const server = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const body = JSON.parse(await readBody(req));
    const mcp = new McpServer({ name: "tool-test", version: "1.0.0" }, {
      capabilities: { tools: {} },
    });
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => ({
      content: [{
        type: "text",
        text: `${request.params.name}: ${JSON.stringify(request.params.arguments ?? {})}`,
      }],
    }));
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
  return { url: `http://127.0.0.1:${listening.port}/mcp`, tools, close: listening.close };
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

/** Start a fake OpenAI + Anthropic API. */
export async function startFakeLlm(answer: (request: LlmRequest, n: number) => LlmAnswer) {
  const requests: LlmRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    const request = { path: req.url ?? "", headers: req.headers, body: JSON.parse(text || "{}") };
    requests.push(request);
    const out = answer(request, requests.length);
    res.writeHead(out.status ?? 200, { "content-type": "application/json", ...out.headers });
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
