// The fallback to legacy HTTP+SSE: the client falls back when Streamable HTTP refuses
// `initialize` with any of the statuses the spec names — 400, 404 and 405 — against a real server
// that answers so on POST and serves a legacy SSE stream on GET. Other statuses are errors, not a
// fallback.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { legacy, startFaultServer, status } from "../_fault_server.ts";

// deno-lint-ignore no-explicit-any
function toolsReply(rpc: any) {
  if (rpc.method !== "tools/list") return undefined;
  return [{
    event: "message",
    data: {
      jsonrpc: "2.0",
      id: rpc.id,
      result: { tools: [{ name: "legacy-tool", inputSchema: {} }] },
    },
  }];
}

/** A server whose `/mcp` refuses every POST with `code` and serves legacy SSE on GET. */
async function refusingServer(code: number) {
  const fault = await startFaultServer();
  const serve = legacy({ reply: toolsReply });
  fault.fallback = (exchange) =>
    exchange.req.method === "POST" && exchange.received.path === "/mcp"
      ? status(code, code === 400 ? "Bad Request: Unsupported protocol version" : "")(exchange)
      : serve(exchange);
  return fault;
}

for (const code of [400, 404, 405]) {
  test(`HTTP ${code} to initialize falls back to legacy HTTP+SSE`, async () => {
    const fault = await refusingServer(code);
    try {
      const client = await connect({ name: `fallback-${code}`, url: fault.url }, {
        timeoutMs: 5_000,
        http: { retries: 0 },
      });
      try {
        assert.equal(client.transport, "sse");
        assert.equal(client.protocolVersion, "2024-11-05");
        assert.deepEqual((await client.listTools()).map((t) => t.name), ["legacy-tool"]);
      } finally {
        await client.close();
      }
      const posts = fault.received.filter((r) => r.method === "POST" && r.path === "/mcp");
      assert.ok(posts.some((r) => r.rpc?.method === "initialize"), "initialize was tried first");
      assert.ok(fault.received.some((r) => r.method === "GET"), "the legacy stream was opened");
    } finally {
      await fault.close();
    }
  });
}

test("HTTP 403 to initialize is an error, not a fallback", async () => {
  const fault = await refusingServer(403);
  try {
    const error = await connect({ name: "forbidden", url: fault.url }, {
      timeoutMs: 5_000,
      http: { retries: 0 },
    }).then(() => undefined, (e: Error) => e);
    assert.equal(error?.name, "HttpError", String(error));
    assert.ok(!fault.received.some((r) => r.method === "GET"), "no legacy stream was opened");
  } finally {
    await fault.close();
  }
});
