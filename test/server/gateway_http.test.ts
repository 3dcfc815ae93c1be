// serveGateway over Streamable HTTP with server-everything registered: the official SDK client
// and this project's client list and call its approved tools under catalog ids, held tools are
// absent, progress and cancellation pass through, and approving a tool elsewhere sends
// `notifications/tools/list_changed`; a watched skills folder that changes sends
// `notifications/resources/list_changed`.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { connect } from "../../lib/mcp/client/client.ts";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { type Registered, registered } from "./_gateway.ts";
import { post, skillDoc } from "./_helpers.ts";
import { waitUntil, within } from "../_wait.ts";

const LONG = "everything__trigger-long-running-operation";
const HELD = "everything__get-env";

let everything: TestServer;
let reg: Registered;
let gateway: GatewayServer;
/** Every JSON-RPC message the gateway posted upstream. */
const upstream: Array<Record<string, unknown>> = [];

before(async () => {
  everything = await startEverything("streamableHttp");
  reg = await registered([{ name: "everything", url: everything.url }]);
  await reg.approve((id) => id !== HELD);
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "POST" && typeof init.body === "string") {
      upstream.push(JSON.parse(init.body));
    }
    return await globalThis.fetch(input, init);
  };
  gateway = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    connect: { http: { fetch } },
    pollMs: 100,
  });
});
after(async () => {
  await gateway.close();
  await everything.close();
});

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  return client;
}

test("the SDK client lists approved tools under catalog ids (annotations, output schemas) and the skills", async () => {
  const client = await sdkClient();
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("everything__echo"), names.join(", "));
    assert.ok(names.includes("search_skills") && names.includes("get_skill"));
    assert.ok(!names.includes(HELD), "a held tool is never listed");
    assert.ok(tools.some((t) => t.name.startsWith("everything__") && t.annotations !== undefined));
    assert.ok(tools.some((t) => t.name.startsWith("everything__") && t.outputSchema !== undefined));
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "skill://samtools"));
    const echoed = await client.callTool({
      name: "everything__echo",
      arguments: { message: "hi" },
    });
    assert.match(JSON.stringify(echoed.content), /hi/);
    const held = await client.callTool({ name: HELD, arguments: {} });
    assert.equal(held.isError, true);
    assert.match(JSON.stringify(held.content), /waits for approval/);
  } finally {
    await client.close();
  }
});

test("this project's client lists and calls through the gateway, with progress", async () => {
  const client = await connect({ name: "gw", url: gateway.url });
  try {
    const tools = await client.listTools();
    assert.ok(tools.some((t) => t.name === "everything__echo"));
    assert.ok(!tools.some((t) => t.name === HELD));
    const result = await client.callTool("everything__echo", { message: "through" });
    assert.match(JSON.stringify(result.content), /through/);
    let steps = 0;
    const long = await client.callTool(LONG, { duration: 0.3, steps: 3 }, {
      onProgress: () => void steps++,
    });
    assert.notEqual(long.isError, true);
    assert.ok(steps >= 2, `progress seen by this project's client: ${steps}`);
  } finally {
    await client.close();
  }
});

test("progress passes through to the SDK client", async () => {
  const client = await sdkClient();
  try {
    const seen: number[] = [];
    const result = await client.callTool(
      { name: LONG, arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (p: { progress: number }) => void seen.push(p.progress) },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    assert.ok(seen.length >= 3, `progress seen: ${seen.join(", ")}`);
  } finally {
    await client.close();
  }
});

test("cancellation passes through: the upstream gets notifications/cancelled", async () => {
  const client = await sdkClient();
  try {
    const controller = new AbortController();
    const before = upstream.length;
    const pending = client.callTool(
      { name: LONG, arguments: { duration: 20, steps: 20 } },
      undefined,
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await assert.rejects(pending);
    await waitUntil(
      () => upstream.slice(before).some((m) => m.method === "notifications/cancelled"),
      5_000,
    );
  } finally {
    await client.close();
  }
});

test("approving a held tool elsewhere sends tools/list_changed and lists it", async () => {
  const client = await sdkClient();
  try {
    const changed = new Promise<void>((done) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => done())
    );
    await reg.approve((id) => id === HELD);
    await within(changed, 5_000, "notifications/tools/list_changed");
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === HELD));
  } finally {
    await client.close();
  }
});

test(
  "a tool that requires a task runs as a task upstream; the host's plain call gets its result and status as progress",
  {
    timeout: 60_000,
  },
  async () => {
    const client = await sdkClient();
    try {
      const { tools } = await client.listTools();
      const research = tools.find((t) => t.name === "everything__simulate-research-query");
      assert.ok(research, "the task tool is listed");
      assert.equal(research.execution, undefined, "the host is not asked to run a task itself");
      const messages: string[] = [];
      const result = await client.callTool(
        { name: research.name, arguments: { topic: "gateways" } },
        undefined,
        {
          onprogress: (p: { message?: string }) => void messages.push(p.message ?? ""),
          timeout: 50_000,
        },
      );
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.match(JSON.stringify(result.content), /gateways/);
      assert.ok(messages.length >= 1, "task status arrives as progress");
    } finally {
      await client.close();
    }
  },
);

test("the HTTP edge of serve: token (401), Origin (403) and Host (403) rules", async () => {
  const guarded = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    token: "s3cret",
  });
  try {
    assert.equal((await post(guarded.url)).status, 401);
    assert.equal((await post(guarded.url, { Authorization: "Bearer wrong" })).status, 401);
    const ok = await post(guarded.url, { Authorization: "Bearer s3cret" });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const evil = await post(guarded.url, {
      Authorization: "Bearer s3cret",
      origin: "https://evil.example",
    });
    assert.equal(evil.status, 403);
    const url = new URL(guarded.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { host: "rebind.example", "content-type": "application/json" },
      }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end("{}");
    });
    assert.equal(status, 403);
  } finally {
    await guarded.close();
  }
});

test("a server removed through the registry in this process: list_changed at once, without waiting for a poll", async () => {
  const slow = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    pollMs: 600_000,
  });
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(slow.url)));
  try {
    assert.ok((await client.listTools()).tools.some((t) => t.name === "everything__echo"));
    const changed = new Promise<void>((done) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => done())
    );
    await reg.registry.remove("everything");
    await within(changed, 5_000, "notifications/tools/list_changed");
    assert.ok(!(await client.listTools()).tools.some((t) => t.name.startsWith("everything__")));
  } finally {
    await client.close();
    await slow.close();
  }
});

test(
  "a watched skills folder that changes: resources/list_changed on the GET stream, and on the next request without one",
  {
    timeout: 60_000,
  },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillmux-gateway-skills-"));
    await writeFile(join(dir, "alpha.md"), skillDoc("alpha", "Alpha skill. Use when testing."));
    const resolver = createResolver({
      sources: [createStorageSource({ label: "user", storage: createFsStorage({ root: dir }) })],
    });
    const watching = await serveGateway({ resolver, watch: [dir], pollMs: 100 });
    const sdk = new Client({ name: "sdk-test", version: "1.0.0" });
    const heard: string[] = [];
    const ours = await connect({ name: "gw", url: watching.url }, {
      protocolVersion: "2025-11-25",
      listen: false,
      onNotification: (message) => heard.push(message.method),
    });
    try {
      await sdk.connect(new StreamableHTTPClientTransport(new URL(watching.url)));
      const names = async () => (await sdk.listResources()).resources.map((r) => r.name).sort();
      assert.deepEqual(await names(), ["alpha"]);
      assert.equal((await ours.listResources()).length, 1);
      const changed = new Promise<void>((done) =>
        sdk.setNotificationHandler(ResourceListChangedNotificationSchema, () => done())
      );
      await writeFile(join(dir, "gamma.md"), skillDoc("gamma", "Gamma skill. Use when testing."));
      await within(changed, 10_000, "notifications/resources/list_changed on the GET stream");
      assert.deepEqual(await names(), ["alpha", "gamma"]);
      // Without a GET stream: told on the next request's own stream, once.
      assert.deepEqual(heard, []);
      assert.equal((await ours.listResources()).length, 2);
      assert.deepEqual(heard, ["notifications/resources/list_changed"]);
      await ours.listResources();
      assert.equal(heard.length, 1, "told once per change");
      // A file that is no skill changes nothing served: no notice.
      await writeFile(join(dir, "notes.txt"), "not a skill");
      await new Promise((done) => setTimeout(done, 400));
      await ours.listResources();
      assert.equal(heard.length, 1, heard.join());
    } finally {
      await ours.close();
      await sdk.close();
      await watching.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);
