// MCP Tasks (2025-11-25, SEP-1686) against server-everything's simulate-research-query over
// Streamable HTTP: a task-required tool runs as a task (status callbacks, tasks/get polling,
// tasks/result), the input_required flow answers the elicitation through the host's handler,
// and an abort sends tasks/cancel.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TaskInfo } from "../../../lib/mcp/client/client_types.ts";
import { everythingSuite } from "../_everything_suite.ts";

const { server: everything, connect } = everythingSuite();
const RESEARCH = "simulate-research-query";
const text = (result: { content: unknown }) => JSON.stringify(result.content);

test("a task-required tool runs as a task: statuses, polling, then the result", async () => {
  const client = await connect({ name: "ev", url: everything().url });
  const tool = (await client.listTools()).find((t) => t.name === RESEARCH);
  assert.deepEqual(tool?.execution, { taskSupport: "required" });
  const statuses: TaskInfo[] = [];
  const result = await client.callTool(RESEARCH, { topic: "long reads" }, {
    onTaskStatus: (task) => statuses.push(task),
  });
  assert.match(text(result), /Research Report: long reads/);
  const messages = statuses.map((s) => `${s.status} ${s.statusMessage ?? ""}`.trim());
  assert.ok(messages.some((m) => /^working Gathering sources/.test(m)), messages.join(" | "));
  assert.ok(messages.some((m) => /^working Generating report/.test(m)), messages.join(" | "));
  assert.equal(statuses.at(-1)?.status, "completed");
  assert.equal(new Set(statuses.map((s) => s.taskId)).size, 1);
});

test("input_required: the elicitation arrives through tasks/result and is answered", async () => {
  let asked = "";
  const client = await connect({ name: "ev", url: everything().url }, {
    handlers: {
      elicitation(params) {
        asked = params.message;
        return { action: "accept", content: { interpretation: "historical" } };
      },
    },
  });
  await client.listTools();
  const statuses: string[] = [];
  const result = await client.callTool(RESEARCH, { topic: "python", ambiguous: true }, {
    onTaskStatus: (task) => statuses.push(task.status),
  });
  assert.match(asked, /could have multiple interpretations/);
  assert.match(text(result), /Research Report: python \(historical\)/);
  assert.ok(statuses.includes("input_required"), statuses.join(","));
});

test("an abort settles at once and sends tasks/cancel", async () => {
  const client = await connect({ name: "ev", url: everything().url });
  await client.listTools();
  const controller = new AbortController();
  let taskId = "";
  const pending = client.callTool(RESEARCH, { topic: "cancel me" }, {
    signal: controller.signal,
    onTaskStatus: (task) => {
      taskId = task.taskId;
      controller.abort();
    },
  });
  const error = await pending.catch((e) => e);
  // Once (1 of 8 full runs) this settled without an error in 40 ms: say what came back.
  assert.equal(error?.name, "AbortError", `settled with ${JSON.stringify(error)?.slice(0, 500)}`);
  assert.notEqual(taskId, "", "a task was created");
  let status = "";
  for (let i = 0; i < 50 && status !== "cancelled"; i++) {
    status = String((await client.request("tasks/get", { taskId })).status);
    if (status !== "cancelled") await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(status, "cancelled");
});

test("task: true asks for a task without listing the tools first", async () => {
  const client = await connect({ name: "ev", url: everything().url });
  const statuses: string[] = [];
  const result = await client.callTool(RESEARCH, { topic: "unlisted" }, {
    task: { ttlMs: 60_000 },
    onTaskStatus: (task) => statuses.push(task.status),
  });
  assert.match(text(result), /Research Report: unlisted/);
  assert.equal(statuses.at(-1), "completed", "it ran as a task");
});

test("the client as task receiver: a task-augmented elicitation from the server", async () => {
  let asked = 0;
  const client = await connect({ name: "ev", url: everything().url }, {
    handlers: {
      async elicitation() {
        asked++;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return { action: "accept", content: { name: "Ada", favoriteColor: "Blue" } };
      },
    },
  });
  const names = (await client.listTools()).map((t) => t.name);
  assert.ok(names.includes("trigger-elicitation-request-async"), names.join(", "));
  const result = await client.callTool("trigger-elicitation-request-async", {});
  const shown = text(result);
  assert.equal(asked, 1);
  assert.match(shown, /Task created/);
  assert.match(shown, /Ada/);
  assert.doesNotMatch(shown, /\[SYNC\]/);
});
