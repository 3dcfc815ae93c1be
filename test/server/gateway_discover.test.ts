// serveGateway({ discover: true }): a host sees only the skill tools and the meta-tools
// `find_tools` and `call_tool`; find_tools ranks the approved tools (never a held one) and
// call_tool runs approved tools only.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { registered } from "./_gateway.ts";

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
