// Streamable HTTP against a fault-injecting server: streams that end, stall or
// drop and resume; hung headers and slow drips; wrong and duplicate ids; server
// requests; size caps enforced while streaming (reliability-security §6.B 10–15, §6.C 29, F 52).
import assert from "node:assert/strict";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import type { McpTransport } from "../../../lib/mcp/transport/interface.ts";
import type { JsonRpcNotification, Progress } from "../../../lib/mcp/protocol/types.ts";
import {
  destroyMidBody,
  drip,
  hangHeaders,
  huge,
  json,
  rpcResult,
  sse,
  status,
  text,
  waitUntil,
} from "../_fault_server.ts";
import { faultTests, rejection, resultOf, rpc } from "../_http_helpers.ts";

const faultTest = faultTests({ defaults: { stallTimeoutMs: 10_000 } });

const progress = (token: unknown, value: number) => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, progress: value, total: 2 },
});

/** The next request on the same transport still works. */
async function stillWorks(transport: McpTransport): Promise<void> {
  resultOf(await transport.request(rpc(99, "ping"), { timeoutMs: 2_000 }));
}

faultTest(
  "sse-eof: a stream closed before the response is StreamEndedError, not a timeout",
  {},
  async (rig) => {
    rig.fault.script(
      sse([{ data: { jsonrpc: "2.0", method: "notifications/message", params: {} } }]),
    );
    const error = await rejection(
      rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }),
    );
    assert.ok(isMcpError(error, "StreamEndedError"), String(error));
    await stillWorks(rig.transport);
  },
);

faultTest("sse-hang: a silent stream fails at the stall timeout and is closed", {
  stallTimeoutMs: 100,
}, async (rig) => {
  rig.fault.script(sse([{ id: "1", data: "" }], { end: "hang" }));
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "StreamEndedError"), String(error));
  assert.match(error.message, /stalled/);
  await waitUntil(() => rig.fault.received[0].closedEarly);
  await stillWorks(rig.transport);
});

faultTest("sse-hang without a stall timer fails at the request timeout", {}, async (rig) => {
  rig.fault.script(sse([], { end: "hang" }));
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 150 }));
  assert.ok(isMcpError(error, "TimeoutError"), String(error));
  assert.match(error.message, /tools\/list timed out after 150 ms/);
  await waitUntil(() => rig.fault.received[0].closedEarly);
  await stillWorks(rig.transport);
});

faultTest("headers never sent: TimeoutError, and the server sees the close", {}, async (rig) => {
  rig.fault.script(hangHeaders());
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 150 }));
  assert.ok(isMcpError(error, "TimeoutError"), String(error));
  await waitUntil(() => rig.fault.received[0].closedEarly);
  await stillWorks(rig.transport);
});

faultTest(
  "a slow drip does not reset the request timeout",
  { stallTimeoutMs: 100 },
  async (rig) => {
    rig.fault.script(drip(20));
    const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 300 }));
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    await waitUntil(() => rig.fault.received[0].closedEarly);
  },
);

faultTest("priming events, comments and other event types are skipped", {}, async (rig) => {
  rig.fault.script(sse([
    { id: "p1", retry: 5, data: "" },
    { raw: ": keep-alive\n\n" },
    { event: "other", data: "not json" },
    { id: "p2", data: (r) => rpcResult(r, { ok: true }) },
  ]));
  assert.deepEqual(resultOf(await rig.transport.request(rpc(1, "tools/list"))), { ok: true });
});

faultTest(
  "a dropped stream with an event id is resumed with GET + Last-Event-ID",
  {},
  async (rig) => {
    rig.fault.script(
      sse([{ id: "e1", retry: 10, data: "" }, { id: "e2", data: progress(7, 1) }]),
      sse([{ id: "e3", data: progress(7, 2) }, {
        id: "e4",
        data: rpcResult({ id: 7 }, { resumed: true }),
      }]),
    );
    const seen: Progress[] = [];
    const answer = await rig.transport.request(rpc(7, "tools/call", { name: "slow" }), {
      onProgress: (p) => seen.push(p),
    });
    assert.deepEqual(resultOf(answer), { resumed: true });
    assert.deepEqual(seen.map((p) => p.progress), [1, 2]);
    const [post, get] = rig.fault.received;
    assert.equal(
      post.rpc.params._meta.progressToken,
      7,
      "a progress token is added when onProgress is set",
    );
    assert.equal(get.method, "GET");
    assert.equal(get.headers["last-event-id"], "e2");
    assert.equal(get.headers.accept, "text/event-stream");
  },
);

faultTest("a resume refused with 405 is StreamEndedError; POSTs go on working", {}, async (rig) => {
  rig.fault.script(sse([{ id: "e1", data: "" }]), status(405));
  const error = await rejection(rig.transport.request(rpc(1, "tools/list")));
  assert.ok(isMcpError(error, "StreamEndedError"), String(error));
  assert.match(String(error.cause), /HTTP 405/);
  await stillWorks(rig.transport);
});

faultTest(
  "a resumed stream that ends again is StreamEndedError (one resume only)",
  {},
  async (rig) => {
    rig.fault.script(sse([{ id: "e1", data: "" }]), sse([{ id: "e2", data: "" }]));
    const error = await rejection(rig.transport.request(rpc(1, "tools/list")));
    assert.ok(isMcpError(error, "StreamEndedError"), String(error));
    assert.equal(rig.fault.received.length, 2);
  },
);

faultTest(
  "a wrong id on an SSE stream is ignored and logged; the request times out",
  {},
  async (rig) => {
    rig.fault.script(sse([{ data: rpcResult({ id: 12345 }) }], { end: "hang" }));
    const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 200 }));
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.ok(rig.logs.some((line) => /ignored a response/.test(line)), rig.logs.join("\n"));
  },
);

faultTest("a JSON answer without our id is a ProtocolError at once", {}, async (rig) => {
  rig.fault.script(json(rpcResult({ id: 12345 })), json({ jsonrpc: "2.0", id: 3, result: [] }));
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "ProtocolError"), String(error));
  const invalid = await rejection(rig.transport.request(rpc(3, "tools/list")));
  assert.ok(isMcpError(invalid, "ProtocolError"), String(invalid));
  await stillWorks(rig.transport);
});

faultTest("duplicate responses: the first wins (JSON batch and SSE)", {}, async (rig) => {
  rig.fault.script(
    json((r) => [rpcResult(r, { n: 1 }), rpcResult(r, { n: 2 })]),
    sse([{ data: (r) => rpcResult(r, { n: 1 }) }, { data: (r) => rpcResult(r, { n: 2 }) }]),
  );
  assert.deepEqual(resultOf(await rig.transport.request(rpc(1, "tools/list"))), { n: 1 });
  assert.deepEqual(resultOf(await rig.transport.request(rpc(2, "tools/list"))), { n: 1 });
  assert.ok(rig.logs.some((line) => /ignored a response/.test(line)));
});

faultTest(
  "server requests are answered (ping → {}, others → -32601); notifications are routed",
  {},
  async (rig) => {
    const notes: JsonRpcNotification[] = [];
    rig.transport.onNotification = (message) => notes.push(message);
    rig.fault.script(sse([
      { data: { jsonrpc: "2.0", id: "s1", method: "ping" } },
      { data: { jsonrpc: "2.0", id: "s2", method: "sampling/createMessage", params: {} } },
      {
        data: {
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "info", data: "hi" },
        },
      },
      { data: (r) => rpcResult(r, { done: true }) },
    ]));
    assert.deepEqual(resultOf(await rig.transport.request(rpc(1, "tools/call", { name: "x" }))), {
      done: true,
    });
    assert.deepEqual(notes.map((n) => n.method), ["notifications/message"]);
    await waitUntil(() => rig.fault.received.length === 3);
    const replies = rig.fault.received.slice(1).map((r) => r.rpc).sort((a, b) =>
      a.id.localeCompare(b.id)
    );
    assert.deepEqual(replies[0], { jsonrpc: "2.0", id: "s1", result: {} });
    assert.equal(replies[1].id, "s2");
    assert.equal(replies[1].error.code, -32601);
  },
);

faultTest("a 20 MB tools/list is refused while streaming (JSON)", {}, async (rig) => {
  rig.fault.script(huge(20 * 1024 * 1024));
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "ResponseTooLargeError"), String(error));
  assert.equal((error as unknown as { limit: number }).limit, 4 * 1024 * 1024);
  await waitUntil(() => rig.fault.received[0].closedEarly, 5_000);
  await stillWorks(rig.transport);
});

faultTest(
  "a 20 MB tools/list is refused while streaming (SSE)",
  { maxResponseBytes: 1 << 20 },
  async (rig) => {
    rig.fault.script(huge(20 * 1024 * 1024, { sse: true }));
    const error = await rejection(
      rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }),
    );
    assert.ok(isMcpError(error, "ResponseTooLargeError"), String(error));
    await waitUntil(() => rig.fault.received[0].closedEarly, 5_000);
  },
);

faultTest("a declared Content-Length over the cap is refused before reading", {
  maxResponseBytes: 100,
}, async (rig) => {
  const body = JSON.stringify(rpcResult({ id: 1 }, { pad: "x".repeat(200) }));
  rig.fault.script(
    text(200, body, { "content-type": "application/json", "content-length": String(body.length) }),
  );
  const error = await rejection(rig.transport.request(rpc(1, "tools/list")));
  assert.ok(isMcpError(error, "ResponseTooLargeError"), String(error));
});

faultTest(
  "a socket destroyed mid-JSON body is a NetworkError with no partial parse",
  {},
  async (rig) => {
    rig.fault.script(destroyMidBody());
    const error = await rejection(rig.transport.request(rpc(1, "tools/list")));
    assert.ok(isMcpError(error, "NetworkError"), String(error));
    await stillWorks(rig.transport);
  },
);

faultTest("a stream dropped without an event id is a NetworkError at once", {}, async (rig) => {
  rig.fault.script(
    sse([{ data: { jsonrpc: "2.0", method: "notifications/message", params: {} } }], {
      end: "destroy",
    }),
  );
  const error = await rejection(rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 }));
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.equal(rig.fault.received.length, 1, "not retried: tools/list was not marked idempotent");
});

faultTest("a stream dropped after an event id is resumed", {}, async (rig) => {
  rig.fault.script(
    sse([{ id: "d1", data: progress(5, 1) }], { end: "destroy" }),
    sse([{ id: "d2", data: rpcResult({ id: 5 }, { after: "drop" }) }]),
  );
  assert.deepEqual(resultOf(await rig.transport.request(rpc(5, "tools/list"))), { after: "drop" });
  assert.equal(rig.fault.received[1].headers["last-event-id"], "d1");
});

faultTest("unexpected content types and empty bodies are ProtocolErrors", {}, async (rig) => {
  rig.fault.script(text(200, "hello"), text(200, "", { "content-type": "application/json" }));
  const html = await rejection(rig.transport.request(rpc(1, "tools/list")));
  assert.ok(isMcpError(html, "ProtocolError"), String(html));
  const empty = await rejection(rig.transport.request(rpc(2, "tools/list")));
  assert.ok(isMcpError(empty, "ProtocolError"), String(empty));
});

faultTest(
  "the caller's signal rejects with its reason and closes the connection",
  {},
  async (rig) => {
    rig.fault.script(hangHeaders());
    const controller = new AbortController();
    const pending = rig.transport.request(rpc(1, "tools/list"), {
      signal: controller.signal,
      timeoutMs: 20_000,
    });
    await waitUntil(() => rig.fault.received.length === 1);
    const reason = new Error("user cancelled");
    controller.abort(reason);
    assert.equal(await rejection(pending), reason);
    await waitUntil(() => rig.fault.received[0].closedEarly);
  },
);

faultTest(
  "close() aborts in-flight requests; later calls fail with NetworkError",
  {},
  async (rig) => {
    rig.fault.script(hangHeaders());
    const pending = rig.transport.request(rpc(1, "tools/list"), { timeoutMs: 20_000 });
    await waitUntil(() => rig.fault.received.length === 1);
    await rig.transport.close();
    assert.ok(isMcpError(await rejection(pending), "NetworkError"));
    assert.ok(isMcpError(await rejection(rig.transport.request(rpc(2, "ping"))), "NetworkError"));
    await rig.transport.close();
  },
);
