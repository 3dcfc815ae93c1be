// Tasks and progress faults server-everything cannot produce, from a stdio stub
// (_stdio_fixtures/task_stub.ts): a task the server cancels, a task that fails, a hung
// tasks/get, a progress storm and progress after completion.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { stdio } from "../../../lib/mcp/transport/stdio.ts";
import { fixture, ROOT } from "../_stdio_helpers.ts";

async function stub(mode: string, options: Parameters<typeof connect>[1] = {}) {
  const client = await connect(
    { name: "stub", ...fixture("task_stub.ts", mode), cwd: ROOT },
    { stdio: stdio(), ...options },
  );
  await client.listTools();
  return client;
}

test("a task the server cancels rejects with its message", async () => {
  const client = await stub("cancel");
  try {
    const statuses: string[] = [];
    const error = await client.callTool("job", {}, {
      onTaskStatus: (t) => statuses.push(`${t.status}:${t.statusMessage}`),
    }).catch((e) => e);
    assert.ok(isMcpError(error), String(error));
    assert.match(error.message, /task t-1 was cancelled by the server: the operator stopped it/);
    assert.deepEqual(statuses, [
      "working:starting",
      "working:step 1",
      "working:step 2",
      "cancelled:the operator stopped it",
    ]);
  } finally {
    await client.close();
  }
});

test("a failed task: tasks/result gives its error result", async () => {
  const client = await stub("fail");
  try {
    const result = await client.callTool("job", {});
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /out of disk/);
  } finally {
    await client.close();
  }
});

test("a hung tasks/get times out at the discovery timeout", async () => {
  // 2 s, not less: the same timeout bounds the stub's start-up (initialize), which a loaded
  // machine stretches past half a second.
  const client = await stub("hang", { timeoutMs: 2_000 });
  try {
    const start = performance.now();
    const error = await client.callTool("job", {}).catch((e) => e);
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.ok(performance.now() - start < 10_000);
  } finally {
    await client.close();
  }
});

test("a progress storm and progress after completion: one answer, no stray callbacks", async () => {
  const client = await stub("storm", { callTimeoutMs: 1_000 });
  try {
    let count = 0;
    let settled = false;
    let late = 0;
    const result = await client.callTool("storm", {}, {
      onProgress: () => (settled ? late++ : count++),
    });
    settled = true;
    assert.match(JSON.stringify(result.content), /storm over/);
    assert.equal(count, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(late, 0, "progress after the answer reached no callback");
    assert.match(JSON.stringify((await client.callTool("storm", {})).content), /storm over/);
  } finally {
    await client.close();
  }
});
