// The HTTP transports load their code with the first request (lib/mcp/transport/_lazy.ts): what
// a caller sets before then — handlers, the protocol version, close() — must reach the loaded
// transport, and the stand-in must answer like the transport itself from the first call on.
// Against the scripted fault server, through the public factories.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import { createLegacySseTransport } from "../../../lib/mcp/transport/legacy_sse.ts";
import { createStreamableHttpTransport } from "../../../lib/mcp/transport/streamable_http.ts";
import type { JsonRpcNotification } from "../../../lib/mcp/protocol/types.ts";
import {
  type FaultServer,
  legacy,
  rpcResult,
  sse,
  startFaultServer,
  waitUntil,
} from "../_fault_server.ts";
import { rejection, resultOf, rpc, server } from "../_http_helpers.ts";

let fault: FaultServer;
before(async () => {
  fault = await startFaultServer();
});
after(() => fault.close());

test("a server without a URL is refused at once, before any code loads", () => {
  const stdio = prepareServer({ name: "local", command: "skills-server" });
  assert.throws(() => createStreamableHttpTransport(stdio), TypeError);
  assert.throws(() => createLegacySseTransport(stdio), /has no url/);
});

test("kind, listen and sessionId before the first request", () => {
  const modern = createStreamableHttpTransport(server(fault.url));
  const old = createLegacySseTransport(server(fault.url, { transport: "sse" }));
  assert.equal(modern.kind, "streamable-http");
  assert.equal(typeof modern.listen, "function");
  assert.equal(old.kind, "sse");
  assert.equal(old.listen, undefined, "the legacy transport has no GET stream to listen on");
  assert.equal(modern.sessionId, undefined);
  assert.equal(old.sessionId, undefined);
});

test("handlers and the protocol version set before loading reach the transport", async () => {
  fault.received.length = 0;
  fault.script(
    sse([
      { data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } } },
      { data: { jsonrpc: "2.0", id: "srv-1", method: "roots/list" } },
      { data: (request: unknown) => rpcResult(request, { tools: [] }) },
    ]),
  );
  const transport = createStreamableHttpTransport(server(fault.url));
  const notes: JsonRpcNotification[] = [];
  const asked: string[] = [];
  transport.onNotification = (message) => notes.push(message);
  transport.onRequest = (request) => {
    asked.push(request.method);
    return Promise.resolve({ roots: [] });
  };
  transport.setProtocolVersion("2025-06-18");
  try {
    const answer = resultOf(await transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.deepEqual(answer, { tools: [] });
    assert.equal(fault.received[0].headers["mcp-protocol-version"], "2025-06-18");
    assert.deepEqual(notes.map((n) => n.method), ["notifications/message"]);
    await waitUntil(() => fault.received.length === 2);
    assert.deepEqual(asked, ["roots/list"]);
    assert.deepEqual(fault.received[1].rpc, { jsonrpc: "2.0", id: "srv-1", result: { roots: [] } });
    // Once loaded, the handlers read and written go to the loaded transport.
    assert.equal(typeof transport.onNotification, "function");
    transport.onRequest = undefined;
    assert.equal(transport.onRequest, undefined);
  } finally {
    await transport.close();
  }
});

test("resetSession before loading forgets the protocol version", async () => {
  fault.received.length = 0;
  const transport = createStreamableHttpTransport(server(fault.url));
  transport.setProtocolVersion("2025-06-18");
  transport.resetSession();
  await transport.request(rpc(1, "ping"), { idempotent: true });
  assert.equal(fault.received[0].headers["mcp-protocol-version"], undefined);
  await transport.close();
});

test("closed before the first request: nothing is sent and every call fails as closed", async () => {
  fault.received.length = 0;
  for (
    const transport of [
      createStreamableHttpTransport(server(fault.url)),
      createLegacySseTransport(server(fault.url, { transport: "sse" })),
    ]
  ) {
    await transport.close();
    await transport.close(); // idempotent
    const error = await rejection(transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.ok(isMcpError(error, "NetworkError"), `${transport.kind}: ${error.name}`);
    assert.match(error.message, /closed/);
    const notified = await rejection(
      transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    );
    assert.ok(isMcpError(notified, "NetworkError"));
  }
  assert.equal(fault.received.length, 0);
});

test("the legacy stand-in loads on its first request and keeps the session's stream", async () => {
  fault.received.length = 0;
  const script = legacy();
  fault.fallback = script;
  const transport = createLegacySseTransport(server(fault.origin + "/sse", { transport: "sse" }));
  try {
    const init = resultOf(
      await transport.request(
        rpc(1, "initialize", {
          protocolVersion: "2024-11-05",
          capabilities: {},
          clientInfo: { name: "t", version: "0" },
        }),
        { idempotent: true },
      ),
    );
    assert.equal(init.protocolVersion, "2024-11-05");
    assert.equal(transport.sessionId, "abc");
    await transport.request(rpc(2, "tools/list"), { idempotent: true });
    assert.deepEqual(fault.received.map((r) => r.method), ["GET", "POST", "POST"]);
  } finally {
    await transport.close();
    fault.fallback = (await import("../_fault_server.ts")).ok();
  }
});
