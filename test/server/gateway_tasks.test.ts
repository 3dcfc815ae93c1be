// Tasks passed through (MCP 2025-11-25): two server-everything instances behind one gateway, whose
// `simulate-research-query` requires a task (four one-second stages). A host that declares tasks
// sees the gateway's `tasks` capability and the tool's `execution.taskSupport`; its task-augmented
// tools/call is relayed to the right upstream as a task, and tasks/get, tasks/result, tasks/list
// and tasks/cancel reach the server that holds each task, under ids of the gateway's own (never
// the upstream's). A host that declares no tasks sees the gateway as before.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connect } from "../../lib/mcp/client/client.ts";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { registered } from "./_gateway.ts";

const RESEARCH = "simulate-research-query";
let first: TestServer;
let second: TestServer;
let gateway: GatewayServer;
/** Each upstream's answers to the gateway, by server name: what the upstream task ids were. */
const answers: Record<string, Array<Record<string, unknown>>> = { first: [], second: [] };
/** Each upstream's requests from the gateway, by server name. */
const asked: Record<string, Array<Record<string, unknown>>> = { first: [], second: [] };

/** A fetch that records the JSON-RPC requests and JSON or SSE answers of `name`'s upstream. */
function recording(): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = url.startsWith(first.url.replace(/\/mcp$/, "")) ? "first" : "second";
    if (init?.method === "POST" && typeof init.body === "string") {
      asked[name].push(JSON.parse(init.body));
    }
    const response = await globalThis.fetch(input, init);
    if (init?.method !== "POST") return response;
    const text = await response.clone().text().catch(() => "");
    for (const line of text.split("\n")) {
      const json = line.startsWith("data: ") ? line.slice(6) : line;
      if (!json.trim().startsWith("{")) continue;
      try {
        answers[name].push(JSON.parse(json));
      } catch {
        // Not JSON-RPC.
      }
    }
    return response;
  };
}

before(async () => {
  [first, second] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("streamableHttp"),
  ]);
  const reg = await registered([{ name: "first", url: first.url }, {
    name: "second",
    url: second.url,
  }]);
  await reg.approve(() => true);
  gateway = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    connect: { http: { fetch: recording() } },
  });
});
after(async () => {
  await gateway.close();
  await Promise.all([first.close(), second.close()]);
});

/** An SDK client of the gateway; `tasks`: it declares the tasks capability. */
async function host(tasks: boolean): Promise<Client> {
  const client = new Client(
    { name: "sdk-test", version: "1.0.0" },
    { capabilities: tasks ? { tasks: { list: {}, cancel: {} } } : {} },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  return client;
}

/** Start the research tool of `server` as a task; the host's CreateTaskResult. */
async function startResearch(client: Client, server: string, topic: string) {
  return await client.request({
    method: "tools/call",
    params: { name: `${server}__${RESEARCH}`, arguments: { topic }, task: { ttl: 60_000 } },
  }, CreateTaskResultSchema);
}

/** The upstream task ids `server` created (from its CreateTaskResults to the gateway). */
const upstreamIds = (server: string) =>
  answers[server].flatMap((m) => {
    const task = (m.result as { task?: { taskId?: string } } | undefined)?.task;
    return task?.taskId ? [task.taskId] : [];
  });

test(
  "a host that declares tasks: the capability, the tools' taskSupport, and a task relayed under the gateway's own id",
  {
    timeout: 60_000,
  },
  async () => {
    const client = await host(true);
    try {
      const tasks = client.getServerCapabilities()?.tasks as Record<string, unknown> | undefined;
      assert.deepEqual(tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const { tools } = await client.listTools();
      const research = tools.find((t) => t.name === `first__${RESEARCH}`);
      assert.deepEqual(research?.execution, { taskSupport: "required" });
      assert.equal(tools.find((t) => t.name === "first__echo")?.execution, undefined);

      const a = await startResearch(client, "first", "rivers");
      const b = await startResearch(client, "second", "mountains");
      // The host's ids are the gateway's: neither is an id either upstream gave.
      const upstream = [...upstreamIds("first"), ...upstreamIds("second")];
      assert.equal(upstreamIds("first").length, 1, JSON.stringify(answers.first.slice(-3)));
      assert.equal(upstreamIds("second").length, 1);
      for (const id of [a.task.taskId, b.task.taskId]) {
        assert.ok(!upstream.includes(id), `${id} is an upstream id`);
      }
      assert.notEqual(a.task.taskId, b.task.taskId);
      assert.equal(a.task.status, "working");

      // tasks/get reaches the server that holds each task, asked with its own id.
      const got = await client.request(
        { method: "tasks/get", params: { taskId: b.task.taskId } },
        GetTaskResultSchema,
      );
      assert.equal(got.taskId, b.task.taskId);
      assert.ok(["working", "completed"].includes(got.status), got.status);
      const askedSecond = asked.second.filter((m) => m.method === "tasks/get");
      assert.deepEqual(
        askedSecond.map((m) => (m.params as { taskId: string }).taskId),
        [upstreamIds("second")[0]],
      );
      assert.equal(asked.first.filter((m) => m.method === "tasks/get").length, 0);

      // tasks/list: both, under the host's ids.
      const listed = await client.request(
        { method: "tasks/list", params: {} },
        ListTasksResultSchema,
      );
      assert.deepEqual(
        listed.tasks.map((t) => t.taskId).sort(),
        [a.task.taskId, b.task.taskId].sort(),
      );

      // tasks/result waits for the end and carries the host's id in its related-task metadata.
      const result = await client.request(
        { method: "tasks/result", params: { taskId: a.task.taskId } },
        CallToolResultSchema,
        { timeout: 30_000 },
      );
      assert.match(JSON.stringify(result.content), /Research Report: rivers/);
      assert.deepEqual(result._meta?.["io.modelcontextprotocol/related-task"], {
        taskId: a.task.taskId,
      });
      const done = await client.request(
        { method: "tasks/get", params: { taskId: a.task.taskId } },
        GetTaskResultSchema,
      );
      assert.equal(done.status, "completed");

      // tasks/cancel reaches the server holding the task.
      const c = await startResearch(client, "second", "oceans");
      const cancelled = await client.request(
        { method: "tasks/cancel", params: { taskId: c.task.taskId } },
        CancelTaskResultSchema,
      );
      assert.equal(cancelled.taskId, c.task.taskId);
      assert.equal(cancelled.status, "cancelled");
      const cancels = asked.second.filter((m) => m.method === "tasks/cancel");
      assert.deepEqual(cancels.map((m) => (m.params as { taskId: string }).taskId), [
        upstreamIds("second")[1],
      ]);

      // An id the gateway never gave, and a tool that does not run as a task: errors that say so.
      await assert.rejects(
        client.request(
          { method: "tasks/get", params: { taskId: upstream[0] } },
          GetTaskResultSchema,
        ),
        /Unknown task/,
      );
      await assert.rejects(
        client.request({
          method: "tools/call",
          params: { name: "first__echo", arguments: { message: "x" }, task: {} },
        }, CreateTaskResultSchema),
        /does not run as a task here/,
      );
    } finally {
      await client.close();
    }
  },
);

test(
  "a host that declares no tasks: no tasks capability, no taskSupport, the plain call runs the task upstream",
  {
    timeout: 60_000,
  },
  async () => {
    const client = await host(false);
    try {
      assert.equal(client.getServerCapabilities()?.tasks, undefined);
      const { tools } = await client.listTools();
      const research = tools.find((t) => t.name === `first__${RESEARCH}`);
      assert.ok(research);
      assert.equal(research.execution, undefined);
      const before = upstreamIds("first").length;
      const result = await client.callTool(
        { name: `first__${RESEARCH}`, arguments: { topic: "lakes" } },
        undefined,
        { timeout: 30_000 },
      );
      assert.match(JSON.stringify(result.content), /Research Report: lakes/);
      assert.equal(
        upstreamIds("first").length,
        before + 1,
        "run as a task upstream by the gateway",
      );
    } finally {
      await client.close();
    }
  },
);

test(
  "this project's client (which declares tasks) runs a task through the gateway: relayed, polled, answered",
  {
    timeout: 60_000,
  },
  async () => {
    const client = await connect({ name: "gateway", url: gateway.url });
    try {
      const before = upstreamIds("second").length;
      const statuses: string[] = [];
      const result = await client.callTool(`second__${RESEARCH}`, { topic: "deserts" }, {
        task: true,
        onTaskStatus: (task) => statuses.push(task.status),
      });
      assert.match(JSON.stringify(result.content), /Research Report: deserts/);
      assert.equal(statuses[0], "working");
      assert.equal(upstreamIds("second").length, before + 1);
      // The client polled the gateway's id; the gateway asked the upstream with the upstream's.
      const polled = asked.second.filter((m) => m.method === "tasks/get").map((m) =>
        (m.params as { taskId: string }).taskId
      );
      assert.ok(polled.includes(upstreamIds("second").at(-1)!), polled.join());
    } finally {
      await client.close();
    }
  },
);
