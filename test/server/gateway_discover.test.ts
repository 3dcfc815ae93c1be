// serveGateway({ discover: true }): a host sees only the skill tools and the meta-tools
// `find_tools` and `call_tool`; find_tools ranks the approved tools (never a held one) and
// call_tool runs approved tools only. find_tools's description says what lies behind it (counts,
// servers, topics, what waits) and follows changes; pinned tools are listed directly.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { stdio } from "../../lib/mcp/transport/stdio.ts";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { type Registered, registered } from "./_gateway.ts";
import { within } from "../_wait.ts";

const HELD = "everything__get-env";
let everything: TestServer;
let gateway: GatewayServer;
let client: Client;

before(async () => {
  everything = await startEverything("streamableHttp");
  const reg = await registered([{ name: "everything", url: everything.url }]);
  await reg.approve((id) => id !== HELD);
  gateway = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    discover: true,
  });
  client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
});
after(async () => {
  await client.close();
  await gateway.close();
  await everything.close();
});

// deno-lint-ignore no-explicit-any
const text = (result: any): string => JSON.stringify(result.content);
type Found = { structuredContent?: { tools?: Array<{ id: string; inputSchema: unknown }> } };
const ids = (result: Found) => (result.structuredContent?.tools ?? []).map((t) => t.id);

test("tools/list holds the skill tools and the two meta-tools only", async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "call_tool",
    "find_tools",
    "get_skill",
    "read_skill_file",
    "search_skills",
  ]);
});

test("find_tools ranks approved tools with their input schemas and never offers a held one, but says it", async () => {
  const found = await client.callTool({
    name: "find_tools",
    arguments: { query: "echo a message back" },
  }) as Found;
  assert.equal(ids(found)[0], "everything__echo", JSON.stringify(found));
  assert.ok(found.structuredContent?.tools?.[0].inputSchema);
  const env = await client.callTool({
    name: "find_tools",
    arguments: { query: "environment variables env" },
  }) as Found;
  assert.ok(!ids(env).includes(HELD), JSON.stringify(env));
  // Never offered, but said: the agent learns it waits for approval and how the user approves it.
  assert.deepEqual((env.structuredContent as { held?: string[] }).held, [HELD]);
  assert.match(
    text(env),
    /Waiting for a person's approval, not callable: everything__get-env\. If one is needed, ask the user to approve it \(skillmux approve everything__get-env\)/,
  );
});

test("call_tool runs an approved tool and refuses held, unknown and unlisted ids", async () => {
  const echoed = await client.callTool({
    name: "call_tool",
    arguments: { id: "everything__echo", arguments: { message: "found and called" } },
  });
  assert.notEqual(echoed.isError, true, text(echoed));
  assert.match(text(echoed), /found and called/);
  const held = await client.callTool({ name: "call_tool", arguments: { id: HELD, arguments: {} } });
  assert.equal(held.isError, true);
  assert.match(text(held), /waits for approval/);
  for (const id of ["find_tools", "nobody__nothing"]) {
    const refused = await client.callTool({ name: "call_tool", arguments: { id } });
    assert.equal(refused.isError, true, id);
    assert.match(text(refused), /no approved tool/);
  }
  const direct = await client.callTool({ name: "everything__echo", arguments: { message: "x" } });
  assert.equal(direct.isError, true, "a tool that is not listed is not called directly");
});

// --- What lies behind find_tools, and pinned tools -------------------------------------------
// A second gateway over server-everything (Streamable HTTP) and server-memory (stdio), in
// discover mode with pins: an exact id, a glob, a held tool and a pin that matches nothing.

const MEMORY = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);
const PINS = ["everything__echo", "memory__read_*", HELD, "nobody__*"];

describe("find_tools's description and pinned tools", () => {
  let reg: Registered;
  let pinnedGateway: GatewayServer;
  let sdk: Client;
  let memoryDir: string;
  const describeFind = async () =>
    (await sdk.listTools()).tools.find((t) => t.name === "find_tools")!.description ?? "";

  before(async () => {
    memoryDir = await mkdtemp(join(tmpdir(), "skillmux-memory-"));
    const memory = {
      name: "memory",
      command: process.execPath,
      args: [MEMORY],
      env: { MEMORY_FILE_PATH: join(memoryDir, "memory.jsonl") },
    };
    reg = await registered([{ name: "everything", url: everything.url }, memory], {
      stdio: stdio(),
    });
    await reg.approve((id) => id !== HELD && id !== "memory__delete_relations");
    pinnedGateway = await serveGateway({
      registry: reg.registry,
      approvals: reg.approvals,
      connect: { stdio: stdio() },
      discover: true,
      pinned: PINS,
      pollMs: 100,
    });
    sdk = new Client({ name: "sdk-test", version: "1.0.0" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(pinnedGateway.url)));
  });
  after(async () => {
    await sdk.close();
    await pinnedGateway.close();
    await rm(memoryDir, { recursive: true, force: true });
  });

  test("find_tools says how many tools of which servers, about what, and what waits", async () => {
    const { tools } = await sdk.listTools();
    const find = tools.find((t) => t.name === "find_tools")!;
    // The counts are the catalog's: every approved tool of each server (one of each held).
    const everythingCount = (await reg.registry.discovery("everything"))!.tools.length - 1;
    const memoryCount = (await reg.registry.discovery("memory"))!.tools.length - 1;
    const total = everythingCount + memoryCount;
    assert.match(
      find.description!,
      new RegExp(
        `^Find, among ${total} tools of 2 MCP servers \\(everything \\(${everythingCount}: [^)]+\\); ` +
          `memory \\(${memoryCount}: [^)]+\\)\\), the ones for a task`,
      ),
    );
    // Topics come from each server's tools' own words: server-memory's knowledge graph.
    const memoryTopics = /memory \(\d+: ([^)]+)\)/.exec(find.description!)![1].split(", ");
    assert.ok(
      memoryTopics.includes("graph") && memoryTopics.includes("entities"),
      memoryTopics.join(),
    );
    assert.match(
      find.description!,
      /2 more tools wait for a person's approval \(skillmux approve\)/,
    );
    // The pinned tool that is held is said with the approve command, not listed.
    assert.match(
      find.description!,
      /Pinned: 1 tool waits for approval and cannot be called yet: everything__get-env\. Approve it with: skillmux approve everything__get-env/,
    );
  });

  test("pinned tools are listed directly in discover mode; held and unknown pins are reported", async () => {
    const names = (await sdk.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("find_tools") && names.includes("call_tool"), names.join(", "));
    assert.ok(names.includes("everything__echo"), names.join(", "));
    const reads = names.filter((n) => n.startsWith("memory__read_"));
    assert.deepEqual(reads, ["memory__read_graph"]);
    assert.ok(!names.includes(HELD), "a held pin is not listed");
    assert.ok(!names.includes("everything__get-sum"), "an unpinned tool stays behind find_tools");
    const echoed = await sdk.callTool({ name: "everything__echo", arguments: { message: "pin" } });
    assert.notEqual(echoed.isError, true, text(echoed));
    assert.match(text(echoed), /pin/);
    const graph = await sdk.callTool({ name: "memory__read_graph", arguments: {} });
    assert.notEqual(graph.isError, true, text(graph));
    const unpinned = await sdk.callTool({ name: "everything__get-sum", arguments: { a: 1, b: 2 } });
    assert.equal(unpinned.isError, true, "an unpinned tool is not called directly");
    assert.deepEqual(await pinnedGateway.pins(), {
      listed: ["everything__echo", "memory__read_graph"],
      held: [HELD],
      unknown: ["nobody__*"],
    });
  });

  test("bad pins are refused with what was expected", async () => {
    await assert.rejects(
      serveGateway({ pinned: ["everything echo"] }),
      /Cannot serve the gateway: pinned: pin "everything echo" is not a tool id or a glob/,
    );
    await assert.rejects(
      serveGateway({ pinned: "everything__echo" as unknown as string[] }),
      /pinned must be an array/,
    );
  });

  test("approving the held pin: tools/list_changed, then it is listed and the description counts it", async () => {
    const before = await describeFind();
    const changed = new Promise<void>((done) =>
      sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => done())
    );
    await reg.approve((id) => id === HELD);
    await within(changed, 10_000, "notifications/tools/list_changed");
    const names = (await sdk.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes(HELD), names.join(", "));
    const after = await describeFind();
    assert.notEqual(after, before);
    assert.match(after, /1 more tool waits for a person's approval/);
    assert.doesNotMatch(after, /Pinned:/);
    assert.deepEqual((await pinnedGateway.pins()).held, []);
  });
});

test("feedback: find_tools ranks with the user's labelled requests; a gateway without it, as before", async () => {
  const query = "say my words again to me";
  const feedback = [{
    request: "say these words again",
    expected: ["everything__echo"] as string[],
  }];
  const other = await serveGateway({
    registry: (await registered([{ name: "everything", url: everything.url }])).registry,
    approvals: { storage: (await registered([])).storage, remote: "auto" },
    discover: true,
    feedback,
  });
  const told = new Client({ name: "sdk-test", version: "1.0.0" });
  try {
    await told.connect(new StreamableHTTPClientTransport(new URL(other.url)));
    const found = await told.callTool({ name: "find_tools", arguments: { query } }) as Found;
    assert.equal(ids(found)[0], "everything__echo", JSON.stringify(found));
    const plain = await client.callTool({ name: "find_tools", arguments: { query } }) as Found;
    assert.ok(!ids(plain).includes("everything__echo"), JSON.stringify(plain));
  } finally {
    await told.close();
    await other.close();
  }
  // One user's labels: not for a gateway of many users.
  await assert.rejects(
    serveGateway({
      users: { registry: {} as never, tokens: { t: "u" } },
      feedback,
    }),
    /feedback is one user's/,
  );
});
