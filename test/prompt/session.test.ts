// Tool sessions (lib/prompt/_session.ts), the connections prompt assembly and tool calls share,
// against real MCP servers on 127.0.0.1: a catalog given an already connected client calls its
// tools on it and opens nothing, and a prompt counts that client's tools as connected; two tools
// of one server share one connection; a connection that failed is not kept (the next call
// connects again), and close() while one is failing still resolves.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  connect,
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  executeToolCall,
} from "../../lib/mod.ts";
import { createToolSession } from "../../lib/prompt/_session.ts";
import { selection } from "../_selection.ts";
import { startToolServer } from "../catalog/_servers.ts";
import { listenLocal } from "../mcp/_servers.ts";

describe("tool sessions", () => {
  const TOOLS = [
    { name: "one", description: "The first tool", inputSchema: { type: "object" as const } },
    { name: "two", description: "The second tool", inputSchema: { type: "object" as const } },
  ];

  let tools: Awaited<ReturnType<typeof startToolServer>>;
  /** A gate in front of the tool server: while closed it answers every request with a 503. */
  let gate: { url: string; open: boolean; close(): Promise<void> };

  before(async () => {
    tools = await startToolServer(TOOLS);
    const target = new URL(tools.url);
    const state = { open: true };
    const server = http.createServer((req, res) => {
      if (!state.open) return void res.writeHead(503).end("down for maintenance");
      const forward = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: req.method },
        (answer) => (res.writeHead(answer.statusCode ?? 502, answer.headers), answer.pipe(res)),
      );
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && name !== "host") forward.setHeader(name, value);
      }
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    const listening = await listenLocal(server);
    gate = {
      url: `http://127.0.0.1:${listening.port}/mcp`,
      get open() {
        return state.open;
      },
      set open(value: boolean) {
        state.open = value;
      },
      close: listening.close,
    };
  });

  after(async () => {
    await gate.close();
    await tools.close();
  });

  async function catalogOf(url: string) {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "tools", url });
    return await createCatalog({
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
  }

  test("a catalog given a connected client calls its tools on that client and opens nothing", async () => {
    const client = await connect({ name: "lent", url: tools.url });
    const catalog = await createCatalog({
      clients: [client],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    const session = createToolSession({ catalog });
    try {
      assert.equal(await session.client("lent__one"), client);
      const before = tools.calls.length;
      const result = await executeToolCall(
        { type: "tool_use", id: "t", name: "lent__two", input: {} },
        { catalog, session },
      );
      assert.equal(result.isError, false, JSON.stringify(result.reply));
      assert.deepEqual(tools.calls.slice(before), ["two"]);
      assert.deepEqual(session.connected(), []);
    } finally {
      await session.close();
      catalog.dispose();
      await client.close();
    }
  });

  test("a prompt counts a lent client's tools as connected, even with connect: false", async () => {
    const client = await connect({ name: "lent", url: tools.url });
    const catalog = await createCatalog({
      clients: [client],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    try {
      for (const connectServers of [false, true]) {
        const prompt = await assemblePrompt({
          request: "run the first tool",
          catalog,
          selection: selection([], ["lent__one"]),
          connect: connectServers ? undefined : false,
        });
        assert.deepEqual(prompt.loaded.tools, [
          { id: "lent__one", source: "mcp:lent", connected: true },
        ]);
        assert.deepEqual(
          prompt.session.connected(),
          [],
          "the session opened no connection of its own",
        );
        await prompt.session.close();
      }
    } finally {
      catalog.dispose();
      await client.close();
    }
  });

  test("two tools of one server share one connection, until the session closes", async () => {
    const catalog = await catalogOf(tools.url);
    const session = createToolSession({ catalog });
    try {
      const first = await session.client("tools__one");
      assert.equal(await session.client("tools__two"), first);
      assert.deepEqual(session.connected(), ["tools"]);
      await session.close();
      assert.deepEqual(session.connected(), []);
      assert.notEqual(await session.client("tools__one"), first, "a new connection after close()");
    } finally {
      await session.close();
      catalog.dispose();
    }
  });

  test("a failed connection is not kept: the next call connects again; close() still resolves", async () => {
    gate.open = true;
    const catalog = await catalogOf(gate.url); // listed while the server answers
    const session = createToolSession({ catalog });
    try {
      gate.open = false;
      // close() while the connection is being made: it waits for it, which fails, and resolves.
      const failing = session.client("tools__one");
      const closing = session.close();
      await assert.rejects(failing, /503/);
      await closing;
      await assert.rejects(session.client("tools__one"), /503/);
      await new Promise((resolve) => setTimeout(resolve, 10)); // the failure is dropped on a later turn
      gate.open = true;
      const client = await session.client("tools__two");
      assert.deepEqual((await client.callTool("two", {})).content, [
        { type: "text", text: "two: {}" },
      ]);
    } finally {
      gate.open = true;
      await session.close();
      catalog.dispose();
    }
  });
});
