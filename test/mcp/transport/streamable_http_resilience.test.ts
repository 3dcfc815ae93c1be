// Streamable HTTP: HTTP errors, retries and Retry-After, the circuit breaker,
// sessions, redirects, and secrets kept out of every error and log line
// (reliability-security §6.B 16–21, §6.C 23, 25, 27, §6.D 33, 34, 36).
import assert from "node:assert/strict";
import { test } from "node:test";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { createStreamableHttpTransport } from "../../../lib/mcp/transport/streamable_http.ts";
import { parseRetryAfter } from "../../../lib/mcp/transport/_retry.ts";
import type { JsonRpcResponse } from "../../../lib/mcp/protocol/types.ts";
import {
  destroyMidBody,
  type FaultServer,
  hangHeaders,
  html,
  huge,
  initialize,
  json,
  ok,
  redirect,
  rpcResult,
  sse,
  startFaultServer,
  status,
  text,
} from "../_fault_server.ts";
import {
  assertNoSecrets,
  faultTests,
  handshake,
  rejection,
  resultOf,
  rpc,
  server,
} from "../_http_helpers.ts";

const API_KEY = "sk-live-0123456789abcdef";
const HEADER_SECRET = "hdr-secret-9876543210";
const SECRETS = [API_KEY, HEADER_SECRET];

const faultTest = faultTests({
  config: { apiKey: API_KEY, headers: { "X-Api-Key": HEADER_SECRET } },
  secrets: SECRETS,
});

const posts = (fault: FaultServer) => fault.received.filter((r) => r.method === "POST").length;

faultTest(
  "an HTML 500 with a 1 MB body: HttpError, body cut to 1 KiB, not retried for tools/call",
  {},
  async (rig) => {
    rig.fault.script(html(500, 1024 * 1024));
    const error = await rejection(
      rig.transport.request(rpc(1, "tools/call", { name: "x" }), { idempotent: false }),
    );
    assert.ok(isMcpError(error, "HttpError"), String(error));
    assert.equal((error as unknown as { status: number }).status, 500);
    assert.ok((error as unknown as { body: string }).body.length <= 1025);
    assert.ok(error.message.length < 1200);
    assert.equal(posts(rig.fault), 1);
  },
);

faultTest(
  "a 502 with a 1 MB body is retried for an idempotent request: 3 attempts",
  {},
  async (rig) => {
    rig.fault.script(html(502, 1024 * 1024), html(502, 1024 * 1024), html(502, 1024 * 1024));
    const error = await rejection(
      rig.transport.request(rpc(1, "tools/list"), { idempotent: true }),
    );
    assert.ok(isMcpError(error, "HttpError"), String(error));
    assert.equal(posts(rig.fault), 3);
  },
);

faultTest(
  "503 twice then success: exactly 3 attempts when idempotent, 1 when not",
  {},
  async (rig) => {
    rig.fault.script(status(503), status(503), ok({ tools: [] }));
    assert.deepEqual(
      resultOf(await rig.transport.request(rpc(1, "tools/list"), { idempotent: true })),
      { tools: [] },
    );
    assert.equal(posts(rig.fault), 3);
    rig.fault.script(status(503));
    const error = await rejection(rig.transport.request(rpc(2, "tools/call", { name: "x" })));
    assert.equal((error as unknown as { status: number }).status, 503);
    assert.equal(posts(rig.fault), 4);
  },
);

faultTest("429 with Retry-After: 1 waits the server's delay, then succeeds", {}, async (rig) => {
  rig.fault.script(status(429, "slow down", { "retry-after": "1" }), ok());
  resultOf(
    await rig.transport.request(rpc(1, "tools/list"), { idempotent: true, timeoutMs: 5_000 }),
  );
  assert.equal(posts(rig.fault), 2);
  // Measured by the server: the retry arrives no earlier than asked (1 ms for clock rounding).
  const [first, retry] = rig.fault.received;
  const waited = retry.at - first.at;
  assert.ok(waited >= 999, `the retry came ${waited.toFixed(1)} ms after the 429, before 1000 ms`);
});

faultTest("a Retry-After longer than the time left fails at once with the 429", {}, async (rig) => {
  rig.fault.script(status(429, "", { "retry-after": "1" }));
  const error = await rejection(
    rig.transport.request(rpc(1, "tools/list"), { idempotent: true, timeoutMs: 500 }),
  );
  assert.equal((error as unknown as { status: number }).status, 429);
  assert.equal(posts(rig.fault), 1);
});

faultTest(
  "Retry-After: 3600 is clamped to maxRetryAfterMs",
  { maxRetryAfterMs: 20 },
  async (rig) => {
    rig.fault.script(status(503, "", { "retry-after": "3600" }), ok());
    resultOf(await rig.transport.request(rpc(1, "tools/list"), { idempotent: true }));
    const [first, retry] = rig.fault.received;
    const waited = retry.at - first.at;
    assert.ok(waited >= 19 && waited < 3_000, `waited ${waited.toFixed(1)} ms, not about 20`);
  },
);

test("Retry-After: delta seconds and HTTP dates", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("2", now), 2000);
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now), 5000);
  assert.equal(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now), 0);
  assert.equal(parseRetryAfter("soon", now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
});

faultTest(
  "a network error after sending tools/call is not retried; tools/list is",
  {},
  async (rig) => {
    rig.fault.script(destroyMidBody());
    const error = await rejection(rig.transport.request(rpc(1, "tools/call", { name: "x" })));
    assert.ok(isMcpError(error, "NetworkError"), String(error));
    assert.equal(posts(rig.fault), 1);
    rig.fault.script(destroyMidBody(), ok({ tools: [] }));
    resultOf(await rig.transport.request(rpc(2, "tools/list"), { idempotent: true }));
    assert.equal(posts(rig.fault), 3);
  },
);

faultTest(
  "aborting during backoff settles at once with the reason; nothing more is sent",
  {},
  async (rig) => {
    rig.fault.script(status(503, "", { "retry-after": "5" }));
    const controller = new AbortController();
    const pending = rig.transport.request(rpc(1, "tools/list"), {
      idempotent: true,
      signal: controller.signal,
      timeoutMs: 20_000,
    });
    await rig.logged(/retry 1/);
    const reason = new Error("stop");
    controller.abort(reason);
    assert.equal(await rejection(pending), reason);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(posts(rig.fault), 1);
  },
);

test("connection refused is a NetworkError with a cause", async () => {
  const fault = await startFaultServer();
  const url = fault.url;
  await fault.close();
  const transport = createStreamableHttpTransport(server(url, { apiKey: API_KEY }), { retries: 0 });
  const error = await rejection(transport.request(rpc(1, "ping"), { idempotent: true }));
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.ok(error.cause !== undefined);
  assertNoSecrets(error, SECRETS);
  await transport.close();
});

/**
 * The outcome of the first call the circuit admits: while it refuses, wait the `retryAfterMs`
 * its `CircuitOpenError` names (the breaker's own word, not a guess) and ask again.
 */
async function whenAdmitted(call: () => Promise<unknown>): Promise<unknown> {
  for (let refusals = 0; refusals < 100; refusals++) {
    const outcome = await call().then((value) => value, (error: unknown) => error);
    if (!isMcpError(outcome, "CircuitOpenError")) return outcome;
    const { retryAfterMs } = outcome as unknown as { retryAfterMs: number };
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, retryAfterMs)));
  }
  throw new Error("the circuit never admitted a call");
}

faultTest(
  "the circuit opens after N failures, fails fast, then lets one probe through",
  // A cooldown long enough that a loaded machine cannot outlast it between two calls.
  { circuitThreshold: 3, circuitCooldownMs: 1_000 },
  async (rig) => {
    rig.fault.script(status(503), status(503), status(503));
    for (let i = 0; i < 3; i++) {
      assert.ok(
        isMcpError(await rejection(rig.transport.request(rpc(i, "tools/call"))), "HttpError"),
      );
    }
    const open = await rejection(rig.transport.request(rpc(3, "tools/call")));
    assert.ok(isMcpError(open, "CircuitOpenError"), String(open));
    const { retryAfterMs } = open as unknown as { retryAfterMs: number };
    assert.ok(retryAfterMs > 0 && retryAfterMs <= 1_000, String(retryAfterMs));
    assert.equal(posts(rig.fault), 3, "no request while open");
    rig.fault.script(status(503));
    const probe = await whenAdmitted(() => rig.transport.request(rpc(4, "tools/call")));
    assert.ok(isMcpError(probe, "HttpError"), `probe fails: ${probe}`);
    assert.equal(posts(rig.fault), 4, "exactly one probe went through");
    assert.ok(
      isMcpError(await rejection(rig.transport.request(rpc(5, "ping"))), "CircuitOpenError"),
      "re-opened",
    );
    resultOf(await whenAdmitted(() => rig.transport.request(rpc(6, "ping"))) as JsonRpcResponse);
    resultOf(await rig.transport.request(rpc(7, "ping")));
    assert.equal(posts(rig.fault), 6);
  },
);

faultTest(
  "session: captured at initialize, echoed; a 404 is SessionExpiredError and the id is dropped",
  {},
  async (rig) => {
    rig.fault.script(initialize({ sessionId: "s-1" }), ok(), status(404, "Session not found"));
    await handshake(rig.transport);
    assert.equal(rig.transport.sessionId, "s-1");
    const error = await rejection(
      rig.transport.request(rpc(1, "tools/list"), { idempotent: true }),
    );
    assert.ok(isMcpError(error, "SessionExpiredError"), String(error));
    assert.equal(rig.transport.sessionId, undefined);
    rig.fault.script(initialize({ sessionId: "s-2" }), ok(), ok({ tools: [] }));
    rig.transport.resetSession();
    await handshake(rig.transport);
    resultOf(await rig.transport.request(rpc(2, "tools/list"), { idempotent: true }));
    const wire = rig.fault.received.map((
      r,
    ) => [r.rpc?.method, r.headers["mcp-session-id"], r.headers["mcp-protocol-version"]]);
    assert.deepEqual(wire, [
      ["initialize", undefined, undefined],
      ["notifications/initialized", "s-1", "2025-11-25"],
      ["tools/list", "s-1", "2025-11-25"],
      ["initialize", undefined, undefined],
      ["notifications/initialized", "s-2", "2025-11-25"],
      ["tools/list", "s-2", "2025-11-25"],
    ]);
  },
);

faultTest(
  "a 400 about the session is SessionExpiredError only when a session id was sent",
  {},
  async (rig) => {
    const noSession = json({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Bad Request: No valid session ID provided" },
    }, 400);
    rig.fault.script(noSession, status(404, "Not Found"));
    const plain = await rejection(rig.transport.request(rpc(1, "tools/list")));
    assert.ok(isMcpError(plain, "HttpError"), String(plain));
    const missing = await rejection(rig.transport.request(rpc(2, "initialize")));
    assert.ok(
      isMcpError(missing, "HttpError"),
      "a 404 without a session is an HttpError (legacy fallback)",
    );
    rig.fault.script(initialize({ sessionId: "s-1" }), noSession);
    await rig.transport.request(rpc(3, "initialize"));
    const expired = await rejection(rig.transport.request(rpc(4, "tools/list")));
    assert.ok(isMcpError(expired, "SessionExpiredError"), String(expired));
  },
);

faultTest("an invalid Mcp-Session-Id is a ProtocolError and is never echoed", {}, async (rig) => {
  rig.fault.script(
    initialize({ sessionId: "bad session" }),
    initialize({ sessionId: "sess\u00e9" }),
  );
  const error = await rejection(rig.transport.request(rpc(1, "initialize")));
  assert.ok(isMcpError(error, "ProtocolError"), String(error));
  assert.ok(!error.message.includes("bad session"));
  assert.ok(
    isMcpError(await rejection(rig.transport.request(rpc(2, "initialize"))), "ProtocolError"),
  );
  assert.equal(rig.transport.sessionId, undefined);
  resultOf(await rig.transport.request(rpc(3, "ping")));
  assert.equal(rig.fault.received[2].headers["mcp-session-id"], undefined);
});

faultTest("close() sends DELETE with the session id and tolerates 405", {}, async (rig) => {
  rig.fault.script(initialize({ sessionId: "s-9" }), ok(), status(405));
  await handshake(rig.transport);
  await rig.transport.close();
  const last = rig.fault.received.at(-1)!;
  assert.equal(last.method, "DELETE");
  assert.equal(last.headers["mcp-session-id"], "s-9");
  assert.equal(last.headers.authorization, `Bearer ${API_KEY}`);
  assert.equal(rig.logs.length, 0, rig.logs.join("\n"));
});

faultTest("notifications expect 202; other statuses are errors", {}, async (rig) => {
  await rig.transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
  rig.fault.script(status(500, "boom"));
  const error = await rejection(
    rig.transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  );
  assert.ok(isMcpError(error, "HttpError"), String(error));
});

test("redirects: same-origin 307 is followed with credentials; cross-origin is refused unsent", async () => {
  const [fault, other] = await Promise.all([startFaultServer(), startFaultServer()]);
  const prepared = server(fault.url, { apiKey: API_KEY, headers: { "X-Api-Key": HEADER_SECRET } });
  const transport = createStreamableHttpTransport(prepared, {});
  try {
    fault.script(redirect(307, "/mcp2"), ok({ moved: true }));
    assert.deepEqual(resultOf(await transport.request(rpc(1, "tools/list"))), { moved: true });
    assert.equal(fault.received[1].path, "/mcp2");
    assert.equal(fault.received[1].rpc.method, "tools/list");
    assert.equal(fault.received[1].headers["x-api-key"], HEADER_SECRET);

    fault.script(redirect(307, `${other.url}`), redirect(308, `${other.origin}/x`));
    for (const id of [2, 3]) {
      const error = await rejection(transport.request(rpc(id, "tools/list"), { idempotent: true }));
      assert.ok(isMcpError(error, "PolicyError"), String(error));
      assertNoSecrets(error, SECRETS);
    }
    assert.equal(other.received.length, 0, "the other origin never saw a request");

    fault.script(redirect(302, "/elsewhere"));
    assert.ok(
      isMcpError(await rejection(transport.request(rpc(4, "tools/list"))), "PolicyError"),
      "POST → GET",
    );

    fault.script(
      ...Array.from({ length: 5 }, (_, i) => redirect(307, `/hop${i}`)),
      ok({ hops: 5 }),
    );
    assert.deepEqual(resultOf(await transport.request(rpc(5, "tools/list"))), { hops: 5 });
    fault.script(...Array.from({ length: 6 }, (_, i) => redirect(307, `/hop${i}`)));
    const tooMany = await rejection(transport.request(rpc(6, "tools/list")));
    assert.ok(isMcpError(tooMany, "PolicyError"), String(tooMany));
    assert.match(tooMany.message, /too many redirects/);
  } finally {
    await transport.close();
    await Promise.all([fault.close(), other.close()]);
  }
});

faultTest("secrets never appear in errors, causes or logs across fault scenarios", {
  stallTimeoutMs: 100,
}, async (rig) => {
  const echo = `<pre>Authorization: Bearer ${API_KEY}\nX-Api-Key: ${HEADER_SECRET}</pre>`;
  rig.fault.script(
    html(500, 4096, echo),
    text(401, `invalid key ${API_KEY}`, { "www-authenticate": "Bearer" }),
    json({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: `bad key ${encodeURIComponent(API_KEY)}` },
    }),
    hangHeaders(),
    sse([{ id: "1", data: "" }], { end: "hang" }),
    huge(8 * 1024 * 1024),
    destroyMidBody(),
    initialize({ sessionId: "bad id" }),
    initialize({ sessionId: "s-1" }),
    status(404),
    sse([{ data: rpcResult({ id: 424242 }) }]),
  );
  // Each outcome is recorded, success included, so an answer that should have failed shows up
  // in the comparison instead of being caught by the same try/catch as the expected errors.
  const outcomes: Array<Error | "answered"> = [];
  for (let i = 0; i < 11; i++) {
    const method = i >= 7 && i <= 8 ? "initialize" : "tools/list";
    outcomes.push(
      await rig.transport.request(rpc(i, method), { timeoutMs: i === 3 ? 150 : 5_000 }).then(
        () => "answered" as const,
        (error: Error) => error,
      ),
    );
  }
  assert.deepEqual(outcomes.map((o) => o === "answered" ? o : o.name), [
    "HttpError",
    "HttpError",
    "ProtocolError",
    "TimeoutError",
    "StreamEndedError",
    "ResponseTooLargeError",
    "NetworkError",
    "ProtocolError",
    "answered",
    "SessionExpiredError",
    "StreamEndedError",
  ]);
  const errors = outcomes.filter((o): o is Error => o !== "answered");
  assert.match((errors[0] as unknown as { body: string }).body, /\[redacted\]/);
  for (const error of errors) assertNoSecrets(error, SECRETS);
  const seen = rig.fault.received[0].headers;
  assert.equal(seen.authorization, `Bearer ${API_KEY}`);
  assert.equal(seen["x-api-key"], HEADER_SECRET);
});

test("an unreachable transport's log and errors stay secret-free under retries", async () => {
  const fault = await startFaultServer();
  fault.script(status(503, API_KEY), status(503, HEADER_SECRET), status(503, "x"));
  const logs: string[] = [];
  const transport = createStreamableHttpTransport(
    server(fault.url, { apiKey: API_KEY, headers: { "X-Api-Key": HEADER_SECRET } }),
    { retryDelayMs: 1, log: (line) => logs.push(line) },
  );
  const error = await rejection(transport.request(rpc(1, "tools/list"), { idempotent: true }));
  assertNoSecrets(error, SECRETS);
  assert.ok(logs.length >= 2);
  for (const line of logs) assertNoSecrets(line, SECRETS);
  await transport.close();
  await fault.close();
});
