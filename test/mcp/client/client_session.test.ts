// connect() where real servers can't be made to misbehave on cue: lost sessions, version
// negotiation, endless or looping pagination, and policy refusals before any I/O.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import {
  type FaultServer,
  hangHeaders,
  initialize,
  json,
  ok,
  rpcResult,
  startFaultServer,
  status,
} from "../_fault_server.ts";

// A fresh fault server per test: a handler one test scripted but did not use, a changed
// fallback or a request still in flight cannot leak into the next test.
let fault: FaultServer;
beforeEach(async () => {
  fault = await startFaultServer();
  fault.lifecycle = true;
  fault.fallback = ok({ tools: [] });
});
afterEach(() => fault.close());

/** The JSON-RPC methods received, without the era probe and the initialized notification. */
const rpcs = () =>
  fault.received.map((r) => r.rpc?.method as string | undefined).filter((m): m is string =>
    m !== undefined && m !== "server/discover" && m !== "notifications/initialized"
  );
const sessionOf = (method: string) =>
  fault.received.filter((r) => r.rpc?.method === method).map((r) => r.headers["mcp-session-id"]);

describe("a lost session", () => {
  test("re-initialises once and replays the idempotent request", async () => {
    fault.script(initialize({ sessionId: "s1" }));
    const client = await connect({ name: "f", url: fault.url });
    fault.script(
      status(404),
      initialize({ sessionId: "s2" }),
      ok({ tools: [{ name: "t", inputSchema: {} }] }),
    );
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["t"]);
    assert.deepEqual(rpcs(), ["initialize", "tools/list", "initialize", "tools/list"]);
    assert.deepEqual(
      sessionOf("initialize"),
      [undefined, undefined],
      "re-initialise without the dead session id",
    );
    assert.deepEqual(sessionOf("tools/list"), ["s1", "s2"]);
    fault.script(json({}, 202));
    await client.close();
  });

  test("the 400 'No valid session ID' some servers send counts as a lost session", async () => {
    fault.script(initialize({ sessionId: "s1" }));
    const client = await connect({ name: "f", url: fault.url });
    fault.script(
      json({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: No valid session ID provided" },
        id: null,
      }, 400),
      initialize({ sessionId: "s2" }),
    );
    await client.listTools();
    assert.equal(rpcs().filter((m) => m === "initialize").length, 2);
    await client.close();
  });

  test("tools/call is not replayed: the session is renewed and SessionExpiredError surfaces", async () => {
    fault.script(initialize({ sessionId: "s1" }));
    const client = await connect({ name: "f", url: fault.url });
    fault.script(status(404), initialize({ sessionId: "s2" }));
    const error = await client.callTool("delete-everything", {}).catch((e) => e);
    assert.equal(error.name, "SessionExpiredError");
    assert.match(error.message, /not replayed/);
    assert.equal(rpcs().filter((m) => m === "tools/call").length, 1);
    assert.equal(rpcs().filter((m) => m === "initialize").length, 2);
    await client.close();
  });

  test("a second 404 right after re-initialising is an error, not a loop", async () => {
    fault.script(initialize({ sessionId: "s1" }));
    const client = await connect({ name: "f", url: fault.url });
    fault.script(status(404), initialize({ sessionId: "s2" }), status(404));
    const error = await client.listTools().catch((e) => e);
    assert.equal(error.name, "SessionExpiredError");
    assert.equal(rpcs().filter((m) => m === "initialize").length, 2);
    await client.close();
  });
});

describe("protocol versions", () => {
  test("an older version the server picks is used, and sent on every later request", async () => {
    fault.script(
      json((rpc: { id: number }) =>
        rpcResult(rpc, {
          protocolVersion: "2025-03-26",
          capabilities: { tools: {} },
          serverInfo: { name: "old", version: "1" },
        })
      ),
    );
    const client = await connect({ name: "f", url: fault.url });
    assert.equal(client.protocolVersion, "2025-03-26");
    await client.listTools();
    const headers = fault.received.filter((r) => r.rpc?.method !== "server/discover")
      .map((r) => r.headers["mcp-protocol-version"]);
    assert.deepEqual(headers.slice(0, 1), [undefined], "no version header on initialize");
    assert.ok(headers.slice(1).every((h) => h === "2025-03-26"), JSON.stringify(headers));
    await client.close();
  });

  test("a version this client does not speak fails cleanly", async () => {
    fault.script(json((rpc: { id: number }) =>
      rpcResult(rpc, {
        protocolVersion: "1999-01-01",
        capabilities: {},
        serverInfo: { name: "odd", version: "1" },
      })
    ));
    const error = await connect({ name: "f", url: fault.url }).catch((e) => e);
    assert.equal(error.name, "UnsupportedProtocolVersionError");
    assert.equal(error.version, "1999-01-01");
  });
});

describe("pagination is bounded", () => {
  const page = (cursor: string) =>
    json((rpc: { id: number }) =>
      rpcResult(rpc, { tools: [{ name: cursor, inputSchema: {} }], nextCursor: cursor })
    );

  test("a repeated cursor stops the listing", async () => {
    fault.script(initialize());
    const client = await connect({ name: "f", url: fault.url });
    fault.script(page("a"), page("b"), page("a"));
    const error = await client.listTools().catch((e) => e);
    assert.equal(error.name, "ProtocolError");
    assert.match(error.message, /repeated cursor "a"/);
    await client.close();
  });

  test("more pages than maxPages stops the listing", async () => {
    fault.script(initialize());
    const client = await connect({ name: "f", url: fault.url }, { maxPages: 3 });
    fault.script(page("1"), page("2"), page("3"));
    const error = await client.listTools().catch((e) => e);
    assert.match(error.message, /more than 3 pages/);
    assert.equal(rpcs().filter((m) => m === "tools/list").length, 3);
    await client.close();
  });
});

describe("deadlines", () => {
  test("deadlineMs bounds a whole paginated list, not just each request", async () => {
    fault.script(initialize());
    const client = await connect({ name: "f", url: fault.url });
    fault.script(
      json((rpc: { id: number }) => rpcResult(rpc, { tools: [], nextCursor: "2" })),
      hangHeaders(),
    );
    const error = await client.listTools({ timeoutMs: 30_000, deadlineMs: 150 }).catch((e) => e);
    assert.equal(error.name, "TimeoutError");
    assert.match(error.message, /tools\/list took longer than its 150 ms deadline/);
    assert.equal(error.server, "f");
    fault.script(ok({ tools: [] }));
    assert.deepEqual(await client.listTools(), [], "the client still works afterwards");
    await client.close();
  });

  test("deadlineMs bounds connect, and the caller's own abort keeps its reason", async () => {
    fault.script(hangHeaders());
    const error = await connect({ name: "f", url: fault.url }, {
      timeoutMs: 30_000,
      deadlineMs: 150,
    }).catch((e) => e);
    assert.equal(error.name, "TimeoutError");
    assert.match(error.message, /connecting took longer than its 150 ms deadline/);
    fault.script(hangHeaders());
    const controller = new AbortController();
    const pending = connect({ name: "f", url: fault.url }, {
      signal: controller.signal,
      deadlineMs: 10_000,
    });
    controller.abort(new Error("user gave up"));
    assert.equal((await pending.catch((e) => e)).message, "user gave up");
  });
});

describe("policy before any I/O", () => {
  test("a blocked header, a bad URL scheme, a missing variable: refused, nothing sent", async () => {
    // Each rejection is caught as it is made: awaiting them one by one would leave a later one
    // unhandled for a moment, which Node's test runner reports as a failure of its own.
    const refused = await Promise.all([
      connect({ name: "f", url: fault.url, headers: { Host: "evil" } }),
      connect({ name: "f", url: "file:///etc/passwd" }),
      connect({ name: "f", url: fault.url, apiKey: "${NOT_SET_ANYWHERE}" }, { env: {} }),
    ].map((attempt) => attempt.catch((e) => e)));
    for (const error of refused) assert.equal(error.name, "PolicyError");
    assert.equal(fault.received.length, 0);
  });
});
