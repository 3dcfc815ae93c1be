// The stdio transport against the reference server @modelcontextprotocol/server-everything,
// with the MCP handshake done by hand.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createStdioTransport, type StdioTransport } from "../../../lib/mcp/transport/stdio.ts";
import type { JsonRpcResponse, Progress } from "../../../lib/mcp/protocol/types.ts";
import { alive, everything, rpc, stdioServer } from "../_stdio_helpers.ts";

let transport: StdioTransport;
let nextId = 1;
const diagnostics: string[] = [];

async function call(
  method: string,
  params?: Record<string, unknown>,
  onProgress?: (p: Progress) => void,
) {
  const response: JsonRpcResponse = await transport.request(rpc(nextId++, method, params), {
    timeoutMs: 30_000,
    onProgress,
  });
  assert.ok("result" in response, `${method} failed: ${JSON.stringify(response)}`);
  return response.result;
}

before(async () => {
  transport = createStdioTransport(stdioServer("everything", everything()), {
    onDiagnostic: (message) => diagnostics.push(message),
  });
  const init = await call("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "skillmux-test", version: "0.0.0" },
  });
  assert.equal(init.protocolVersion, "2025-11-25");
  assert.equal((init.serverInfo as { name: string }).name, "mcp-servers/everything");
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
});

after(async () => {
  const pid = transport.pid;
  await transport.close();
  if (pid !== undefined) {
    assert.equal(alive(pid), false, "server-everything still running after close");
  }
});

test("tools/list includes echo; tools/call echo answers", async () => {
  const { tools } = await call("tools/list") as { tools: Array<{ name: string }> };
  assert.ok(tools.some((t) => t.name === "echo"), tools.map((t) => t.name).join(", "));
  const result = await call("tools/call", { name: "echo", arguments: { message: "héllo stdio" } });
  const content = result.content as Array<{ type: string; text: string }>;
  assert.equal(content[0].type, "text");
  assert.match(content[0].text, /héllo stdio/);
});

test("resources/list and resources/read of a static Markdown document", async () => {
  const { resources } = await call("resources/list") as { resources: Array<{ uri: string }> };
  const uri = "demo://resource/static/document/features.md";
  assert.ok(resources.some((r) => r.uri === uri), resources.map((r) => r.uri).join(", "));
  const { contents } = await call("resources/read", { uri }) as {
    contents: Array<{ uri: string; text?: string; mimeType?: string }>;
  };
  assert.equal(contents[0].uri, uri);
  assert.ok((contents[0].text ?? "").length > 100);
});

test("ping, an unknown method (JSON-RPC error resolves), and progress notifications", async () => {
  assert.deepEqual(await call("ping"), {});
  const unknown = await transport.request(rpc(nextId++, "no/such-method"), { timeoutMs: 30_000 });
  assert.ok("error" in unknown && unknown.error.code === -32601, JSON.stringify(unknown));
  const progress: Progress[] = [];
  const result = await call(
    "tools/call",
    { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
    (p) => progress.push(p),
  );
  assert.match((result.content as Array<{ text: string }>)[0].text, /completed/);
  assert.deepEqual(progress.map((p) => [p.progress, p.total]), [[1, 2], [2, 2]]);
});
