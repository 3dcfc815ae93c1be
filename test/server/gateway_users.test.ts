// The gateway over HTTP with the multi-user registry in a real Redis: each bearer token maps to
// one user's view, a user's token never lists, calls or reaches another user's server, a
// session opened by one user is not found with another user's token, and with hundreds of
// sessions of four users at once, whose JSON-RPC ids and progress tokens collide on purpose, no
// response, progress or notification reaches another session.
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
import { waitUntil } from "../_wait.ts";

const LOOPBACK = { urlPolicy: { mode: "default" as const } }; // the test servers are on loopback
let redis: RedisServer;
let unstorage: ReturnType<typeof createStorage>;
let adaLab: SdkServer;
let bobLab: SdkServer;
let gateway: GatewayServer;
let registry: ReturnType<typeof createMultiUserRegistry>;
const USERS = ["ada", "bob", "cy", "dee"];
/** Each user's own `marks` server (progress carrying a marker, then the marker). */
const marks = new Map<string, SdkServer>();

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
  for (const user of USERS) {
    const server = await startSdkServer({ marks: true });
    marks.set(user, server);
    await registry.forUser(user).add({ name: "marks", url: server.url });
  }
  const approvals = createMemoryStorage();
  gateway = await serveGateway({
    users: {
      registry,
      tokens: Object.fromEntries(USERS.map((user) => [`tok-${user}`, user])),
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
  await Promise.all([adaLab.close(), bobLab.close(), ...[...marks.values()].map((m) => m.close())]);
  await redis.stop();
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

/** Every JSON-RPC message of a JSON or SSE answer. */
async function messages(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return text === "" ? [] : [JSON.parse(text)];
  }
  return text.split(/\r?\n\r?\n/).map((event) =>
    event.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5))
      .join("\n").trim()
  ).filter((data) => data !== "").map((data) => JSON.parse(data));
}

/**
 * A raw session of `user` that takes SSE answers (so progress can reach it): initialize and
 * initialized, as any HTTP client sends them.
 */
async function rawSession(user: string): Promise<Record<string, string>> {
  const opened = await post(gateway.url, {
    Authorization: `Bearer tok-${user}`,
    accept: "application/json, text/event-stream",
  });
  assert.equal(opened.status, 200);
  await messages(opened);
  const headers = {
    Authorization: `Bearer tok-${user}`,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-06-18",
  };
  const note = await post(
    gateway.url,
    headers,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  );
  await note.body?.cancel();
  return headers;
}

test("240 sessions of 4 users, colliding ids and progress tokens: each gets only its own", async () => {
  const sessions = await Promise.all(
    USERS.flatMap((user) =>
      Array.from({ length: 60 }, async (_, i) => ({
        user,
        marker: `${user}-${i}`,
        headers: await rawSession(user),
      }))
    ),
  );
  assert.equal(new Set(sessions.map((s) => s.headers["mcp-session-id"])).size, sessions.length);
  // Two calls per session at once, ids 1 and 2 with progress tokens 1 and 2 in every session,
  // interleaved with all the others.
  const calls = sessions.flatMap((session) =>
    [0, 1].map(async (round) => {
      const marker = `${session.marker}.${round}`;
      const response = await fetch(gateway.url, {
        method: "POST",
        headers: {
          ...session.headers,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: round + 1,
          method: "tools/call",
          params: {
            name: "marks__mark",
            arguments: { marker, steps: 3 },
            _meta: { progressToken: round + 1 },
          },
        }),
      });
      return { marker, id: round + 1, status: response.status, got: await messages(response) };
    })
  );
  for (const { marker, id, status, got } of await Promise.all(calls)) {
    assert.equal(status, 200, marker);
    const progress = got.filter((m) => m.method === "notifications/progress");
    const results = got.filter((m) => "result" in m || "error" in m);
    const foreign = JSON.stringify(got).match(/"(?:ada|bob|cy|dee)-\d+\.\d"/g)
      ?.filter((m) => m !== `"${marker}"`);
    assert.deepEqual(foreign ?? [], [], `${marker} heard another session`);
    assert.equal(progress.length, 3, `${marker}: ${JSON.stringify(got)}`);
    for (const p of progress) {
      const params = p.params as { progressToken: unknown; message: string };
      assert.equal(params.progressToken, id);
      assert.equal(params.message, marker);
    }
    assert.equal(results.length, 1, `${marker}: one answer`);
    assert.equal(results[0].id, id);
    assert.deepEqual((results[0].result as { content: unknown }).content, [
      { type: "text", text: marker },
    ]);
  }
  // And each user's upstream saw only that user's markers.
  for (const [user, server] of marks) {
    const asked = server.requests.filter((r) => r.rpc === "tools/call").length;
    assert.equal(asked, sessions.length / 2, `${user}'s marks server got ${asked} calls`);
  }
});

test("a change in one user's servers is told to that user's sessions only", async () => {
  const streams = await Promise.all(USERS.flatMap((user) =>
    [0, 1, 2].map(async () => {
      const headers = await rawSession(user);
      const abort = new AbortController();
      const response = await fetch(gateway.url, {
        headers: { ...headers, accept: "text/event-stream" },
        signal: abort.signal,
      });
      assert.equal(response.status, 200);
      let heard = "";
      const reading = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of response.body!) heard += decoder.decode(chunk as Uint8Array);
      })().catch(() => {});
      return { user, abort, reading, heard: () => heard };
    })
  ));
  const extra = await startSdkServer({ json: true });
  try {
    await registry.forUser("cy").add({ name: "cylab", url: extra.url });
    const told = (s: (typeof streams)[number]) =>
      s.heard().includes("notifications/tools/list_changed");
    await waitUntil(() => streams.filter((s) => s.user === "cy").every(told), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 600)); // three polls more for the others
    for (const stream of streams) {
      assert.equal(told(stream), stream.user === "cy", `${stream.user}'s stream`);
    }
  } finally {
    for (const s of streams) s.abort.abort();
    await Promise.all(streams.map((s) => s.reading));
    await registry.forUser("cy").remove("cylab").catch(() => {});
    await extra.close();
  }
});

test("a request reusing the id of one in flight in its session is refused; the first one ends well", async () => {
  const headers = {
    ...(await rawSession("ada")),
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const call = (marker: string) =>
    fetch(gateway.url, {
      method: "POST",
      headers,
      signal: AbortSignal.timeout(15_000), // a stream left hanging fails here, not at the deadline
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "marks__mark",
          arguments: { marker, steps: 3 },
          _meta: { progressToken: 7 },
        },
      }),
    });
  const first = await call("first");
  const second = await call("second"); // while the first one's stream is still open
  assert.equal(second.status, 400);
  const refusal = await second.json();
  assert.equal(refusal.error.code, -32600);
  assert.match(
    refusal.error.message,
    /id 7 is already used by a request in flight in this session/,
  );
  const got = await messages(first);
  assert.deepEqual(got.filter((m) => m.method === "notifications/progress").length, 3);
  assert.ok(!JSON.stringify(got).includes("second"));
  assert.deepEqual((got.at(-1)!.result as { content: unknown }).content, [
    { type: "text", text: "first" },
  ]);
  // Once it has ended, the id is free again.
  const again = await messages(await call("again"));
  assert.deepEqual((again.at(-1)!.result as { content: unknown }).content, [
    { type: "text", text: "again" },
  ]);
});
