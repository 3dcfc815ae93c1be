// The Streamable HTTP transport against real servers: the MCP SDK's server
// (stateless and stateful, JSON and SSE answers) and server-everything.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { createStreamableHttpTransport } from "../../../lib/mcp/transport/streamable_http.ts";
import type { Progress } from "../../../lib/mcp/protocol/types.ts";
import { type SdkServer, startEverything, startSdkServer, type TestServer } from "../_servers.ts";
import { handshake, recordingFetch, rejection, resultOf, rpc, server } from "../_http_helpers.ts";

const SKILLS = {
  samtools:
    "---\nname: samtools\ndescription: Sort and index BAM files\n---\n# samtools\nUse `samtools sort`.",
  refunds: "---\nname: refunds\ndescription: Handle refunds\n---\n# Refunds",
};

for (const json of [true, false]) {
  describe(`SDK server, stateless, ${json ? "JSON" : "SSE"} answers`, () => {
    let sdk: SdkServer;
    before(async () => {
      sdk = await startSdkServer({ json, skills: SKILLS });
    });
    after(() => sdk.close());

    test("initialize, tools/list and resources/read, with no session", async () => {
      const wire = recordingFetch();
      const transport = createStreamableHttpTransport(server(sdk.url), { fetch: wire.fetch });
      const init = await handshake(transport);
      assert.equal((init.serverInfo as { name: string }).name, "skillmux-test");
      assert.equal(transport.sessionId, undefined);
      const tools = resultOf(await transport.request(rpc(1, "tools/list"), { idempotent: true }));
      assert.deepEqual((tools.tools as Array<{ name: string }>).map((t) => t.name), [
        "echo",
        "add",
      ]);
      const read = resultOf(
        await transport.request(rpc(2, "resources/read", { uri: "skill://samtools" }), {
          idempotent: true,
        }),
      );
      const [contents] = read.contents as Array<{ text: string; mimeType: string }>;
      assert.equal(contents.mimeType, "text/markdown");
      assert.match(contents.text, /samtools sort/);
      const call = resultOf(
        await transport.request(rpc(3, "tools/call", { name: "add", arguments: { a: 2, b: 3 } })),
      );
      assert.deepEqual(call.structuredContent, { sum: 5 });
      await transport.close();
      assert.ok(wire.bodies.some((body) => json ? body.startsWith("{") : body.includes("data: ")));
      for (const sent of wire.sent) {
        assert.equal(sent.headers.get("accept"), "application/json, text/event-stream");
        assert.equal(sent.headers.get("mcp-session-id"), null);
      }
      assert.equal(
        wire.sent[0].headers.get("mcp-protocol-version"),
        null,
        "no version header on initialize",
      );
      assert.equal(wire.sent[1].headers.get("mcp-protocol-version"), "2025-11-25");
      assert.ok(sdk.requests.every((r) => r.method === "POST"), "no DELETE without a session");
    });
  });
}

describe("SDK server, stateful", () => {
  let sdk: SdkServer;
  before(async () => {
    sdk = await startSdkServer({ stateful: true, skills: SKILLS, pageSize: 1, tools: 2 });
  });
  after(() => sdk.close());

  test("the session id is captured, echoed, and ended with DELETE on close", async () => {
    const wire = recordingFetch();
    const transport = createStreamableHttpTransport(server(sdk.url), { fetch: wire.fetch });
    sdk.requests.length = 0;
    await handshake(transport);
    const session = transport.sessionId;
    assert.match(session ?? "", /^[0-9a-f-]{36}$/);
    const page = resultOf(await transport.request(rpc(1, "resources/list"), { idempotent: true }));
    assert.equal((page.resources as unknown[]).length, 1);
    assert.equal(page.nextCursor, "1");
    const next = resultOf(
      await transport.request(rpc(2, "resources/list", { cursor: page.nextCursor }), {
        idempotent: true,
      }),
    );
    assert.equal((next.resources as Array<{ uri: string }>)[0].uri, "skill://refunds");
    const tools = resultOf(
      await transport.request(rpc(3, "tools/list", { cursor: "2" }), { idempotent: true }),
    );
    assert.deepEqual((tools.tools as Array<{ name: string }>).map((t) => t.name), ["dummy-1"]);
    await transport.close();
    assert.deepEqual(sdk.requests.map((r) => [r.method, r.rpc, r.sessionId]), [
      ["POST", "initialize", undefined],
      ["POST", "notifications/initialized", session],
      ["POST", "resources/list", session],
      ["POST", "resources/list", session],
      ["POST", "tools/list", session],
      ["DELETE", undefined, session],
    ]);
    assert.equal(wire.sent.at(-1)?.headers.get("mcp-protocol-version"), "2025-11-25");
    assert.equal(transport.sessionId, undefined);
  });

  test("a forgotten session is SessionExpiredError; a new initialize gets a new one", async () => {
    const transport = createStreamableHttpTransport(server(sdk.url));
    await handshake(transport);
    const old = transport.sessionId!;
    await fetch(sdk.url, { method: "DELETE", headers: { "mcp-session-id": old } });
    const error = await rejection(transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.ok(isMcpError(error, "SessionExpiredError"), String(error));
    assert.equal(transport.sessionId, undefined, "the dead session id is not sent again");
    transport.resetSession();
    await handshake(transport);
    assert.notEqual(transport.sessionId, old);
    resultOf(await transport.request(rpc(2, "tools/list"), { idempotent: true }));
    await transport.close();
  });

  test("an unsupported protocol version header is an HttpError 400, not a lost session", async () => {
    const transport = createStreamableHttpTransport(server(sdk.url));
    await handshake(transport);
    transport.setProtocolVersion("1999-01-01");
    const error = await rejection(transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.ok(isMcpError(error, "HttpError"), String(error));
    assert.equal((error as unknown as { status: number }).status, 400);
    await transport.close();
  });
});

describe("server-everything, streamableHttp", () => {
  let everything: TestServer;
  before(async () => {
    everything = await startEverything("streamableHttp");
  });
  after(() => everything.close());

  test("SSE answers with priming events, progress, resources and an unknown session", async () => {
    const wire = recordingFetch();
    const notifications: string[] = [];
    const transport = createStreamableHttpTransport(server(everything.url), { fetch: wire.fetch });
    transport.onNotification = (message) => notifications.push(message.method);
    const init = await handshake(transport);
    assert.equal((init.serverInfo as { name: string }).name, "mcp-servers/everything");
    assert.ok(transport.sessionId);
    const tools = resultOf(await transport.request(rpc(1, "tools/list"), { idempotent: true }));
    assert.ok(
      (tools.tools as Array<{ name: string }>).some((t) =>
        t.name === "trigger-long-running-operation"
      ),
    );
    const progress: Progress[] = [];
    const call = resultOf(
      await transport.request(
        rpc(2, "tools/call", {
          name: "trigger-long-running-operation",
          arguments: { duration: 0.2, steps: 2 },
        }),
        { timeoutMs: 10_000, onProgress: (p) => progress.push(p) },
      ),
    );
    assert.match(JSON.stringify(call.content), /Long running operation completed/);
    assert.deepEqual(progress, [{ progress: 1, total: 2 }, { progress: 2, total: 2 }]);
    const listed = resultOf(
      await transport.request(rpc(3, "resources/list"), { idempotent: true }),
    );
    const uri = (listed.resources as Array<{ uri: string }>)[0].uri;
    const read = resultOf(
      await transport.request(rpc(4, "resources/read", { uri }), { idempotent: true }),
    );
    assert.equal((read.contents as Array<{ uri: string }>)[0].uri, uri);
    assert.ok(
      wire.bodies.some((body) => /^id: \S+\ndata: ?\n\n/m.test(body)),
      "server-everything sends priming events (an id, empty data), which are skipped",
    );

    // Session 25: the server forgets the session and answers 400 "No valid session ID".
    await fetch(everything.url, {
      method: "DELETE",
      headers: { "mcp-session-id": transport.sessionId! },
    });
    const error = await rejection(transport.request(rpc(5, "tools/list"), { idempotent: true }));
    assert.ok(isMcpError(error, "SessionExpiredError"), String(error));
    assert.match(String((error as Error).cause), /400/);
    transport.resetSession();
    await handshake(transport);
    resultOf(await transport.request(rpc(6, "ping"), { idempotent: true }));
    await transport.close();
  });
});
