// Private: real MCP servers serving given tool lists, for the retrieval bench: the MCP SDK's
// low-level Server (tools/list answers the tools exactly as given; tools/call echoes) over
// Streamable HTTP (stateless, JSON answers) on 127.0.0.1 port 0, one path per server name
// (`/<name>/mcp`) on one listening socket.

import http from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenLocal } from "../test/mcp/_servers.ts";

/** A tool as `tools/list` returns it. */
export interface ServedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Servers by name, each with its tools; `urls[name]` is where each listens. */
export async function serveTools(
  servers: Record<string, readonly ServedTool[]>,
): Promise<{ urls: Record<string, string>; close(): Promise<void> }> {
  const http1 = http.createServer(async (req, res) => {
    const name = decodeURIComponent((req.url ?? "").split("/")[1] ?? "");
    const tools = servers[name];
    if (tools === undefined || req.method !== "POST") return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const mcp = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
    mcp.setRequestHandler(CallToolRequestSchema, (request) => ({
      content: [{ type: "text", text: JSON.stringify(request.params) }],
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
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString("utf8")));
  });
  const listening = await listenLocal(http1);
  const urls = Object.fromEntries(
    Object.keys(servers).map((name) => [
      name,
      `http://127.0.0.1:${listening.port}/${encodeURIComponent(name)}/mcp`,
    ]),
  );
  return { urls, close: listening.close };
}
