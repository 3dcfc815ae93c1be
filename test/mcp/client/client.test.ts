// connect() against real servers: the SDK's McpServer (stateless JSON, stateless SSE, sessions),
// server-everything over Streamable HTTP, legacy SSE (by fallback) and stdio.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { stdio } from "../../../lib/mcp/transport/stdio.ts";
import type { McpClient } from "../../../lib/mcp/client/client_types.ts";
import { type SdkServer, startEverything, startSdkServer, type TestServer } from "../_servers.ts";

const SKILL =
  "---\nname: bwa\ndescription: BWA from MCP. Use when aligning short reads.\n---\n\nBody\n";
const everythingEntry = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/server-everything/package.json")
  .replace(/package\.json$/, "dist/index.js");

async function exercise(client: McpClient): Promise<void> {
  const tools = await client.listTools();
  assert.deepEqual(tools.slice(0, 2).map((t) => t.name), ["echo", "add"]);
  const echoed = await client.callTool("echo", { text: "héllo" });
  assert.deepEqual(echoed.content, [{ type: "text", text: "héllo" }]);
  const resources = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), ["skill://bwa"]);
  const [contents] = await client.readResource("skill://bwa");
  assert.equal(contents.text, SKILL);
  assert.equal(typeof await client.ping(), "number");
}

describe("connect() to the SDK's McpServer", () => {
  const servers: SdkServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  for (const mode of [{ json: true }, { json: false }, { stateful: true }] as const) {
    test(`works stateless or with sessions, JSON or SSE answers: ${JSON.stringify(mode)}`, async () => {
      const server = await startSdkServer({ ...mode, skills: { bwa: SKILL } });
      servers.push(server);
      const client = await connect({ name: "sdk", url: server.url });
      assert.equal(client.transport, "streamable-http");
      assert.equal(client.protocolVersion, "2025-11-25");
      assert.ok(client.capabilities.tools);
      await exercise(client);
      await client.close();
      const methods = server.requests.map((r) => r.rpc ?? r.method);
      assert.deepEqual(
        methods.slice(0, 2),
        ["server/discover", "initialize"],
        "a 2026-07-28 probe first",
      );
      assert.ok(methods.includes("notifications/initialized"));
      if ("stateful" in mode) {
        assert.ok(
          server.requests.slice(2).every((r) => r.sessionId),
          "session id echoed after initialize",
        );
        assert.equal(server.requests.at(-1)?.method, "DELETE", "session ended on close");
      }
    });
  }

  test("lists follow nextCursor to the end", async () => {
    const server = await startSdkServer({ json: true, tools: 12, pageSize: 5 });
    servers.push(server);
    const client = await connect({ name: "paged", url: server.url });
    const tools = await client.listTools();
    assert.equal(tools.length, 14);
    assert.equal(new Set(tools.map((t) => t.name)).size, 14);
    assert.equal(server.requests.filter((r) => r.rpc === "tools/list").length, 3);
    await client.close();
  });

  test("a URL without a path gets /mcp; the server's errors are RpcErrors", async () => {
    const server = await startSdkServer({ json: true });
    servers.push(server);
    const client = await connect({ name: "bare", url: new URL(server.url).origin });
    const error = await client.readResource("skill://nope").catch((e) => e);
    assert.equal(error.name, "RpcError");
    assert.equal(error.code, "rpc");
    assert.equal(typeof error.rpcCode, "number");
    assert.equal(error.server, "bare");
    await client.close();
  });
});

describe("connect() to server-everything", () => {
  let http: TestServer;
  let sse: TestServer;
  before(async () => {
    [http, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")]);
  });
  after(() => Promise.all([http?.close(), sse?.close()]));

  test("Streamable HTTP: tools, prompts, resources and progress", async () => {
    const client = await connect({ name: "everything", url: http.url }, { timeoutMs: 10_000 });
    assert.equal(client.serverInfo.name, "mcp-servers/everything");
    const names = (await client.listTools()).map((t) => t.name);
    assert.ok(
      names.includes("echo") && names.includes("trigger-long-running-operation"),
      names.join(),
    );
    const prompts = await client.listPrompts();
    assert.ok(prompts.length > 0);
    const resources = await client.listResources();
    assert.ok(resources.length > 0);
    const progress: number[] = [];
    const result = await client.callTool(
      "trigger-long-running-operation",
      { duration: 1, steps: 2 },
      { onProgress: (p) => progress.push(p.progress), timeoutMs: 10_000 },
    );
    assert.equal(result.isError ?? false, false);
    assert.deepEqual(progress, [1, 2]);
    await client.close();
  });

  test("a legacy HTTP+SSE server is reached by falling back after the 4xx", async () => {
    const client = await connect({ name: "old", url: sse.url }, { timeoutMs: 10_000 });
    assert.equal(client.transport, "sse");
    assert.ok((await client.listTools()).some((t) => t.name === "echo"));
    const echoed = await client.callTool("echo", { message: "over sse" });
    assert.match(JSON.stringify(echoed.content), /over sse/);
    await client.close();
  });

  test("stdio: a command server on this runtime", async () => {
    const client = await connect(
      { name: "local", command: "node", args: [everythingEntry, "stdio"] },
      { timeoutMs: 10_000, stdio: stdio() },
    );
    assert.equal(client.transport, "stdio");
    assert.ok((await client.listTools()).some((t) => t.name === "echo"));
    await client.close();
  });
});
