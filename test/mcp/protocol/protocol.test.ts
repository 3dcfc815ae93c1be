// The protocol eras and what rides on them, against real servers: a 2026-07-28 server (serveSkills)
// and 2025 servers (the SDK's McpServer, server-everything). Era probe and fallback, hints that
// skip the probe, elicitation with schema defaults, the GET notification stream, and request().
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import type { JsonRpcNotification } from "../../../lib/mcp/protocol/types.ts";
import { serveSkills } from "../../../lib/server/mod.ts";
import type { SkillsServer } from "../../../lib/server/types.ts";
import { type SdkServer, startEverything, startSdkServer, type TestServer } from "../_servers.ts";
import { within } from "../../_wait.ts";

let modern: SkillsServer;
let legacy: SdkServer;
let everything: TestServer;
const modernLog: string[] = [];

before(async () => {
  [modern, legacy, everything] = await Promise.all([
    serveSkills({ log: (line) => modernLog.push(line) }),
    startSdkServer({ json: true }),
    startEverything("streamableHttp"),
  ]);
});
after(() => Promise.all([modern.close(), legacy.close(), everything.close()]));

const rpcs = (server: SdkServer, from: number) =>
  server.requests.slice(from).map((r) => r.rpc ?? r.method);
/** The JSON-RPC methods serveSkills logged since `from` (`POST /mcp <method> <status> <ms>`). */
const served = (from: number) => modernLog.slice(from).map((line) => line.split(" ")[2]);

describe("eras", () => {
  test("a 2026-07-28 server: one discovery, then stateless requests; a hint skips it", async () => {
    const start = modernLog.length;
    const client = await connect({ name: "m", url: modern.url });
    assert.deepEqual([client.era, client.protocolVersion], ["modern", "2026-07-28"]);
    assert.ok((await client.listTools()).some((t) => t.name === "search_skills"));
    await client.close();
    assert.deepEqual(served(start), ["server/discover", "tools/list"]);
    const hinted = modernLog.length;
    const again = await connect({ name: "m", url: modern.url }, { hint: client.hint });
    assert.equal(again.era, "modern");
    await again.listTools();
    await again.close();
    assert.deepEqual(served(hinted), ["tools/list"], "a fresh discovery costs no request");
  });

  test("a 2025 server: the probe, then initialize; a hint goes straight to initialize", async () => {
    const start = legacy.requests.length;
    const client = await connect({ name: "l", url: legacy.url });
    assert.deepEqual([client.era, client.protocolVersion], ["legacy", "2025-11-25"]);
    await client.listTools();
    await client.close();
    const seen = rpcs(legacy, start);
    assert.deepEqual(seen.slice(0, 2), ["server/discover", "initialize"]);
    const hinted = legacy.requests.length;
    const again = await connect({ name: "l", url: legacy.url }, { hint: client.hint });
    await again.listTools();
    await again.close();
    assert.equal(rpcs(legacy, hinted)[0], "initialize");
    assert.ok(!rpcs(legacy, hinted).includes("server/discover"));
  });

  test("a wrong hint is dropped and the era negotiated again", async () => {
    const client = await connect({ name: "l", url: legacy.url }, {
      hint: {
        era: "modern",
        transport: "streamable-http",
        protocolVersion: "2026-07-28",
        discovery: {
          capabilities: { tools: {} },
          serverInfo: { name: "x", version: "1" },
          expiresAt: 0,
        },
      },
    });
    assert.equal(client.era, "legacy");
    await client.close();
  });

  test("request() sends extension methods with the same errors as the fixed ones", async () => {
    const client = await connect({ name: "m", url: modern.url });
    const listed = await client.request("skills/list", {}, { idempotent: true });
    assert.ok(Array.isArray(listed.skills) && listed.skills.length > 0);
    const error = await client.request("no/such-method").catch((e) => e);
    assert.equal(error.name, "RpcError");
    assert.equal(error.rpcCode, -32601);
    assert.equal(client.cacheHint("skills/list")?.ttlMs, 60_000);
    await client.close();
  });
});

describe("server-everything (2025, sessions, SSE)", () => {
  test("elicitation: the handler's answer gets the schema's defaults", async () => {
    const asked: unknown[] = [];
    const client = await connect({ name: "ev", url: everything.url }, {
      timeoutMs: 15_000,
      handlers: {
        elicitation(params) {
          asked.push(params.requestedSchema?.properties.firstLine);
          return { action: "accept", content: { name: "Ada", check: true } };
        },
      },
    });
    assert.deepEqual(client.capabilities.tools !== undefined, true);
    const result = await client.callTool("trigger-elicitation-request", {});
    assert.equal(asked.length, 1);
    const text = JSON.stringify(result.content);
    assert.match(text, /Ada/);
    assert.match(text, /It was a dark and stormy night/, "the default filled the omitted field");
    await client.close();
  });

  test("the GET stream delivers notifications sent outside any request", async () => {
    const got: JsonRpcNotification[] = [];
    let heard: () => void = () => {};
    const first = new Promise<void>((resolve) => (heard = resolve));
    const client = await connect({ name: "ev", url: everything.url }, {
      timeoutMs: 15_000,
      onNotification(message) {
        got.push(message);
        if (message.method === "notifications/message") heard();
      },
    });
    await client.callTool("toggle-simulated-logging", {});
    await within(first, 12_000, "a log notification on the GET stream");
    assert.ok(got.some((m) => m.method === "notifications/message"));
    await client.callTool("toggle-simulated-logging", {});
    await client.close();
  });
});
