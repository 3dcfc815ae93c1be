// The legacy HTTP+SSE transport (2024-11-05): against server-everything's `sse`
// mode, and against a scripted legacy server for the faults (endpoint handling,
// ids, stream ends, size caps, timeouts, secrets).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import type { HttpTransportOptions } from "../../../lib/mcp/transport/http_options.ts";
import { createLegacySseTransport } from "../../../lib/mcp/transport/legacy_sse.ts";
import type { McpTransport } from "../../../lib/mcp/transport/interface.ts";
import type { Progress } from "../../../lib/mcp/protocol/types.ts";
import {
  type FaultServer,
  legacy,
  type LegacyReply,
  rpcResult,
  sse,
  startFaultServer,
  status,
  waitUntil,
} from "../_fault_server.ts";
import { startEverything, type TestServer } from "../_servers.ts";
import { assertNoSecrets, handshake, rejection, resultOf, rpc, server } from "../_http_helpers.ts";

const API_KEY = "sk-legacy-0123456789";
const HEADER_SECRET = "legacy-header-secret-42";
const SECRETS = [API_KEY, HEADER_SECRET];

describe("server-everything, legacy sse", () => {
  let everything: TestServer;
  before(async () => {
    everything = await startEverything("sse");
  });
  after(() => everything.close());

  test("initialize, tools/list, progress and resources over HTTP+SSE", async () => {
    const transport = createLegacySseTransport(server(everything.url, { transport: "sse" }));
    assert.equal(transport.kind, "sse");
    const init = await handshake(transport, "2024-11-05");
    assert.equal(init.protocolVersion, "2024-11-05");
    assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/);
    const tools = resultOf(await transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.ok((tools.tools as Array<{ name: string }>).some((t) => t.name === "echo"));
    const echo = resultOf(
      await transport.request(rpc(2, "tools/call", { name: "echo", arguments: { message: "hi" } })),
    );
    assert.match(JSON.stringify(echo.content), /hi/);
    const progress: Progress[] = [];
    await transport.request(
      rpc(3, "tools/call", {
        name: "trigger-long-running-operation",
        arguments: { duration: 0.2, steps: 2 },
      }),
      { onProgress: (p) => progress.push(p), timeoutMs: 10_000 },
    );
    assert.deepEqual(progress.map((p) => p.progress), [1, 2]);
    const listed = resultOf(
      await transport.request(rpc(4, "resources/list"), { idempotent: true }),
    );
    assert.ok((listed.resources as unknown[]).length > 0);
    await transport.close();
    assert.equal(transport.sessionId, undefined);
  });
});

interface Rig {
  fault: FaultServer;
  transport: McpTransport;
  logs: string[];
}

function legacyTest(
  name: string,
  setup: {
    endpoint?: string;
    reply?: LegacyReply;
    postStatus?: number;
    options?: HttpTransportOptions;
  },
  body: (rig: Rig) => Promise<void>,
): void {
  test(name, async () => {
    const fault = await startFaultServer();
    fault.fallback = legacy(setup);
    const logs: string[] = [];
    const prepared = server(`${fault.origin}/sse`, {
      transport: "sse",
      apiKey: API_KEY,
      headers: { "X-Api-Key": HEADER_SECRET },
    });
    const transport = createLegacySseTransport(prepared, {
      retryDelayMs: 5,
      log: (line) => logs.push(line),
      ...setup.options,
    });
    try {
      await body({ fault, transport, logs });
    } finally {
      await transport.close();
      await fault.close();
      for (const line of logs) assertNoSecrets(line, SECRETS);
    }
  });
}

legacyTest("a relative endpoint is resolved against the SSE URL; credentials go to both", {
  endpoint: "messages?sessionId=xyz",
}, async (rig) => {
  await handshake(rig.transport, "2024-11-05");
  assert.equal(rig.transport.sessionId, "xyz");
  const [get, post] = rig.fault.received;
  assert.equal(get.method, "GET");
  assert.equal(get.path, "/sse");
  assert.equal(get.headers.accept, "text/event-stream");
  assert.equal(post.path, "/messages?sessionId=xyz");
  for (const seen of [get, post]) {
    assert.equal(seen.headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(seen.headers["x-api-key"], HEADER_SECRET);
  }
  assert.equal(rig.fault.received.at(-1)?.headers["mcp-protocol-version"], "2024-11-05");
});

test("an endpoint on another origin is refused; nothing is posted there", async () => {
  const [fault, other] = await Promise.all([startFaultServer(), startFaultServer()]);
  fault.fallback = legacy({ endpoint: `${other.origin}/messages?sessionId=1` });
  const transport = createLegacySseTransport(server(`${fault.origin}/sse`, { apiKey: API_KEY }));
  try {
    const error = await rejection(transport.request(rpc(1, "initialize")));
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    assert.equal(other.received.length, 0);
  } finally {
    await transport.close();
    await Promise.all([fault.close(), other.close()]);
  }
});

legacyTest(
  "no endpoint event in time is a TimeoutError; a later request connects again",
  {},
  async (rig) => {
    rig.fault.script(sse([], { end: "hang" }));
    // 500 ms: on a loaded machine the GET may reach the server only after a shorter timeout.
    const error = await rejection(rig.transport.request(rpc(1, "initialize"), { timeoutMs: 500 }));
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    await waitUntil(() => rig.fault.received[0]?.closedEarly === true);
    await handshake(rig.transport, "2024-11-05");
  },
);

legacyTest(
  "the SSE URL answering 404 is an HttpError (for the client's fallback)",
  {},
  async (rig) => {
    rig.fault.script(status(404, "no such endpoint"));
    const error = await rejection(rig.transport.request(rpc(1, "initialize")));
    assert.ok(isMcpError(error, "HttpError"), String(error));
    assert.equal((error as unknown as { status: number }).status, 404);
  },
);

legacyTest("wrong ids are ignored and logged (the request times out); duplicates: first wins", {
  reply: (r) =>
    r.method === "tools/list"
      ? [{ event: "message", data: rpcResult(r, {}, 999) }]
      : r.method === "ping"
      ? [{ event: "message", data: rpcResult(r, { n: 1 }) }, {
        event: "message",
        data: rpcResult(r, { n: 2 }),
      }]
      : undefined,
}, async (rig) => {
  await handshake(rig.transport, "2024-11-05");
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 150 }));
  assert.ok(isMcpError(error, "TimeoutError"), String(error));
  assert.deepEqual(resultOf(await rig.transport.request(rpc(2, "ping"))), { n: 1 });
  await waitUntil(() =>
    rig.logs.filter((line) => /unknown or repeated id/.test(line)).length === 2
  );
  assert.deepEqual(
    resultOf(await rig.transport.request(rpc(3, "ping"))),
    { n: 1 },
    "the stream still works",
  );
});

legacyTest("the stream ending fails pending requests at once; the session is then gone", {
  reply: (r) => r.method === "tools/list" ? "end" : undefined,
}, async (rig) => {
  await handshake(rig.transport, "2024-11-05");
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "StreamEndedError"), String(error));
  const gone = await rejection(rig.transport.request(rpc(2, "ping")));
  assert.ok(isMcpError(gone, "StreamEndedError"), String(gone));
  assert.match(gone.message, /initialise again/);
  await handshake(rig.transport, "2024-11-05");
  resultOf(await rig.transport.request(rpc(3, "ping")));
  assert.equal(rig.fault.received.filter((r) => r.method === "GET").length, 2);
});

legacyTest("a message over the cap is ResponseTooLargeError", {
  reply: (r) =>
    r.method === "tools/list"
      ? [{ event: "message", data: rpcResult(r, { pad: "x".repeat(5000) }) }]
      : undefined,
  options: { maxResponseBytes: 2048 },
}, async (rig) => {
  await handshake(rig.transport, "2024-11-05");
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "ResponseTooLargeError"), String(error));
});

legacyTest("a POST answered 404 is SessionExpiredError", { postStatus: 404 }, async (rig) => {
  const error = await rejection(rig.transport.request(rpc(1, "initialize")));
  assert.ok(isMcpError(error, "SessionExpiredError"), String(error));
  assertNoSecrets(error, SECRETS);
});

legacyTest("server pings on the stream are answered; notifications are routed", {
  reply: (r) =>
    r.method === "tools/list"
      ? [
        { event: "message", data: { jsonrpc: "2.0", id: "srv-1", method: "ping" } },
        { event: "message", data: { jsonrpc: "2.0", method: "notifications/tools/list_changed" } },
        { event: "message", data: rpcResult(r, { tools: [] }) },
      ]
      : undefined,
}, async (rig) => {
  const notes: string[] = [];
  rig.transport.onNotification = (message) => notes.push(message.method);
  await handshake(rig.transport, "2024-11-05");
  resultOf(await rig.transport.request(rpc(1, "tools/list")));
  assert.deepEqual(notes, ["notifications/tools/list_changed"]);
  await waitUntil(() => rig.fault.received.some((r) => r.rpc?.id === "srv-1"));
  assert.deepEqual(rig.fault.received.find((r) => r.rpc?.id === "srv-1")?.rpc, {
    jsonrpc: "2.0",
    id: "srv-1",
    result: {},
  });
});

legacyTest("close() rejects pending requests and closes the stream", {
  reply: (r) => r.method === "tools/list" ? "none" : undefined,
}, async (rig) => {
  await handshake(rig.transport, "2024-11-05");
  const pending = rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 });
  await waitUntil(() => rig.fault.received.some((r) => r.rpc?.method === "tools/list"));
  await rig.transport.close();
  const error = await rejection(pending);
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  await waitUntil(() => rig.fault.received[0].closedEarly);
});

legacyTest(
  "errors carry no secrets (HTTP error bodies echoing the key are redacted)",
  {},
  async (rig) => {
    rig.fault.script(status(500, `key=${API_KEY} header=${HEADER_SECRET}`));
    const error = await rejection(rig.transport.request(rpc(1, "initialize")));
    assert.ok(isMcpError(error, "HttpError"), String(error));
    assert.match(error.message, /\[redacted\]/);
    assertNoSecrets(error, SECRETS);
  },
);
