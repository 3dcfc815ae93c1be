// Fixtures of the tests of collecting from servers and clients (collect_servers.test.ts,
// collect_clients.test.ts): two echo tools (one whose parameter is described), an MCP server that
// never answers its tool listing, and approvals that take remote tools on sight.
import http from "node:http";
import { createMemoryStorage } from "../../lib/mod.ts";
import type { TestTool } from "./_servers.ts";
import { listenLocal } from "../mcp/_servers.ts";

/** An echo tool whose parameter is described. */
export const ECHO_DESCRIBED: TestTool = {
  name: "echo",
  description: "Echoes back the text it is given",
  inputSchema: { type: "object", properties: { text: { type: "string", description: "What" } } },
};

/** An echo tool whose parameter is not described. */
export const ECHO: TestTool = {
  name: "echo",
  description: "Echoes back the text it is given",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};

/**
 * An MCP server over plain JSON HTTP that initializes but never answers `tools/list`: `asked`
 * settles when the listing arrives, `dropped` when the client gives up on it (closes the request).
 */
export async function startSilentLister() {
  let ask!: () => void;
  const asked = new Promise<void>((resolve) => (ask = resolve));
  let drop!: () => void;
  const dropped = new Promise<void>((resolve) => (drop = resolve));
  const server = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let text = "";
    for await (const chunk of req) text += chunk;
    const message = JSON.parse(text);
    if (message.method === "initialize") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "silent", version: "1.0.0" },
        },
      }));
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === "tools/list") {
      res.on("close", drop);
      return ask(); // never answered
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}/mcp`, asked, dropped, close: listening.close };
}

/** Remote tools approved on sight: these tests are about what is collected. */
export const approvals = () => ({ storage: createMemoryStorage(), remote: "auto" as const });
