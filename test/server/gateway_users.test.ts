// The gateway over HTTP with the multi-user registry in a real Redis: each bearer token maps to
// one user's view, a user's token never lists, calls or reaches another user's server, and a
// session opened by one user is not found with another user's token.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { createMultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { createUnstorageStorage } from "../../lib/storage/unstorage.ts";
import { quietRedisErrors, type RedisServer, startRedis } from "../storage/_redis.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { post } from "./_helpers.ts";

const LOOPBACK = { urlPolicy: { mode: "default" as const } }; // the test servers are on loopback
let redis: RedisServer;
let unstorage: ReturnType<typeof createStorage>;
let adaLab: SdkServer;
let bobLab: SdkServer;
let gateway: GatewayServer;
let registry: ReturnType<typeof createMultiUserRegistry>;

before(async () => {
  [redis, adaLab, bobLab] = await Promise.all([
    startRedis(),
    startSdkServer({ json: true }),
    startSdkServer({ json: true }),
  ]);
  unstorage = createStorage({ driver: redisDriver({ url: redis.url }) });
  quietRedisErrors(unstorage);
  registry = createMultiUserRegistry({
    storage: createUnstorageStorage(unstorage, { base: "svc" }),
    connect: LOOPBACK,
  });
  await registry.forUser("ada").add({ name: "adalab", url: adaLab.url });
  await registry.forUser("bob").add({ name: "boblab", url: bobLab.url });
  const approvals = createMemoryStorage();
  gateway = await serveGateway({
    users: {
      registry,
      tokens: { "tok-ada": "ada", "tok-bob": "bob" },
      approvals: (user) => ({
        storage: approvals,
        key: `users/${user}/approvals.json`,
        remote: "auto",
      }),
    },
    connect: LOOPBACK,
    pollMs: 200,
  });
});
after(async () => {
  await gateway.close();
  await unstorage.dispose();
  await Promise.all([adaLab.close(), bobLab.close(), redis.stop()]);
});

async function as(
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(gateway.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

test("each token lists its own user's servers and never the other's", async () => {
  const ada = await as("tok-ada");
  const bob = await as("tok-bob");
  try {
    const adaTools = await names(ada.client);
    const bobTools = await names(bob.client);
    assert.ok(adaTools.includes("adalab__echo"), adaTools.join(", "));
    assert.ok(!adaTools.some((n) => n.startsWith("boblab__")), adaTools.join(", "));
    assert.ok(bobTools.includes("boblab__echo"), bobTools.join(", "));
    assert.ok(!bobTools.some((n) => n.startsWith("adalab__")), bobTools.join(", "));
    const mine = await ada.client.callTool({ name: "adalab__echo", arguments: { text: "ada's" } });
    assert.match(JSON.stringify(mine.content), /ada's/);
  } finally {
    await Promise.all([ada.client.close(), bob.client.close()]);
  }
});

test("a user's call of another user's tool is refused and never reaches that server", async () => {
  const ada = await as("tok-ada");
  try {
    const before = bobLab.requests.length;
    const result = await ada.client.callTool({ name: "boblab__echo", arguments: { text: "x" } });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /no approved tool \\"boblab__echo\\"/);
    assert.equal(bobLab.requests.length, before, "bob's server got a request from ada's token");
  } finally {
    await ada.client.close();
  }
});

test("a session belongs to its user: another user's token gets 404, no token or a wrong one 401", async () => {
  const ada = await as("tok-ada");
  try {
    const session = ada.transport.sessionId!;
    assert.ok(session);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    const headers = (token: string) => ({
      Authorization: `Bearer ${token}`,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-06-18",
    });
    const stolen = await post(gateway.url, headers("tok-bob"), list);
    assert.equal(stolen.status, 404);
    assert.doesNotMatch(await stolen.text(), /adalab/);
    const own = await post(gateway.url, headers("tok-ada"), list);
    assert.equal(own.status, 200);
    assert.match(await own.text(), /adalab__echo/);
    assert.equal((await post(gateway.url, {})).status, 401);
    assert.equal((await post(gateway.url, { Authorization: "Bearer tok-eve" })).status, 401);
  } finally {
    await ada.client.close();
  }
});

test("with many users, upstream calls default to the strict URL policy (no loopback, no internal hosts)", async () => {
  const strict = await serveGateway({
    users: {
      registry,
      tokens: { "tok-ada": "ada" },
      approvals: () => ({ storage: createMemoryStorage(), remote: "auto" }),
    },
  });
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(strict.url), {
      requestInit: { headers: { Authorization: "Bearer tok-ada" } },
    }),
  );
  try {
    const before = adaLab.requests.length;
    const result = await client.callTool({ name: "adalab__echo", arguments: { text: "x" } });
    assert.equal(result.isError, true, JSON.stringify(result));
    assert.match(JSON.stringify(result.content), /failed on server/);
    assert.equal(adaLab.requests.length, before, "the loopback server was reached");
  } finally {
    await client.close();
    await strict.close();
  }
});
