// How a catalog collects the tools of connected clients (lib/catalog/build/_collect.ts,
// _tool_entry.ts): their tools need no connection and run on their client; one that cannot list,
// or never answers within timeoutMs, is named and the others kept; a build cancelled while one
// lists is cancelled; a tool's display title from its annotations, and no parameter words when
// its schema's properties are null. Real MCP servers on 127.0.0.1 (_collect_servers.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connect, createCatalog } from "../../../lib/mod.ts";
import { startToolServer, type TestTool } from "../_servers.ts";
import { within } from "../../_wait.ts";
import { approvals, ECHO, ECHO_DESCRIBED, startSilentLister } from "../_collect_servers.ts";

let server: Awaited<ReturnType<typeof startToolServer>>;
let echo: Awaited<ReturnType<typeof startToolServer>>;
let echo2: Awaited<ReturnType<typeof startToolServer>>;
before(async () => {
  server = await startToolServer([ECHO_DESCRIBED]);
  echo = await startToolServer([ECHO]);
  echo2 = await startToolServer([ECHO]);
});
after(async () => {
  await server.close();
  await echo.close();
  await echo2.close();
});

describe("connected clients", () => {
  test("their tools need no connection; one that cannot list is named, the others kept", async () => {
    const live = await connect({ name: "live", url: server.url });
    const gone = await connect({ name: "gone", url: server.url });
    await gone.close();
    try {
      const catalog = await createCatalog({ clients: [gone, live], approvals: approvals() });
      assert.deepEqual(catalog.entries.map((e) => [e.id, e.source, e.needsConnection, e.remote]), [
        ["live__echo", "mcp:live", false, true],
      ]);
      assert.deepEqual(catalog.get("live__echo")?.keywords, ["text", "What"]);
      const [diagnostic, ...rest] = catalog.diagnostics;
      assert.deepEqual(rest, []);
      assert.equal(diagnostic.source, "mcp:gone");
      assert.equal(diagnostic.problem, "unreachable");
      assert.match(diagnostic.message, /^mcp:gone: cannot list tools: \S/);
      catalog.dispose();
    } finally {
      await live.close();
    }
  });

  test("a catalog of answering clients has no diagnostics; each tool runs on its client", async () => {
    const live = await connect({ name: "live", url: echo.url });
    try {
      const catalog = await createCatalog({
        clients: [live],
        approvals: approvals(),
      });
      assert.deepEqual(catalog.diagnostics, []);
      const target = catalog.toolTarget("live__echo")!;
      assert.equal(target.client, live);
      assert.equal(target.tool.name, "echo");
      catalog.dispose();
    } finally {
      await live.close();
    }
  });

  test("a client that never answers its listing is given up after timeoutMs, and named", async () => {
    const silent = await startSilentLister();
    // The client's own timeout is long: the catalog's is the one that gives up.
    const client = await connect({ name: "silent", url: silent.url, timeoutMs: 60_000 });
    try {
      const catalog = await within(
        createCatalog({ clients: [client], timeoutMs: 300 }),
        10_000,
        "the catalog is built",
      );
      assert.deepEqual(catalog.entries, []);
      // Slow, not down: a listing that timed out is a timeout, never "unreachable".
      assert.deepEqual(catalog.diagnostics.map((d) => [d.source, d.problem]), [
        ["mcp:silent", "timeout"],
      ]);
      await within(silent.dropped, 5_000, "the server sees the request dropped");
    } finally {
      await client.close();
      await silent.close();
    }
  });

  test("a build cancelled while a client lists is cancelled, not kept with it as unreachable", async () => {
    const silent = await startSilentLister();
    const client = await connect({ name: "silent", url: silent.url, timeoutMs: 60_000 });
    const controller = new AbortController();
    const building = createCatalog({ clients: [client], signal: controller.signal });
    building.catch(() => {});
    try {
      await within(silent.asked, 10_000, "the client lists its tools");
      controller.abort(new Error("user cancelled"));
      await assert.rejects(within(building, 5_000, "the build settles"), /user cancelled/);
    } finally {
      await client.close();
      await silent.close();
    }
  });

  test("a tool's display title may come from its annotations", async () => {
    const titled = await startToolServer([
      { ...ECHO, annotations: { title: "Echo it back" } } as unknown as TestTool,
      { ...ECHO, name: "named", title: "Named echo" } as unknown as TestTool,
    ]);
    const client = await connect({ name: "t", url: titled.url });
    try {
      const catalog = await createCatalog({ clients: [client], approvals: approvals() });
      assert.equal(catalog.get("t__echo")!.title, "Echo it back");
      assert.equal(catalog.get("t__named")!.title, "Named echo");
      assert.deepEqual(catalog.get("t__named")!.tags, []);
    } finally {
      await client.close();
      await titled.close();
    }
  });

  test("a tool whose schema's properties are null has no parameter words", async () => {
    const odd = await startToolServer([
      { ...ECHO, inputSchema: { type: "object", properties: null } } as unknown as TestTool,
    ]);
    const client = await connect({ name: "odd", url: odd.url });
    try {
      const catalog = await createCatalog({ clients: [client], approvals: approvals() });
      assert.deepEqual(catalog.diagnostics, []);
      assert.deepEqual(catalog.get("odd__echo")!.keywords, []);
    } finally {
      await client.close();
      await odd.close();
    }
  });
});
