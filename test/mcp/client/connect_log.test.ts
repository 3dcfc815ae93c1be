// A connection's `log` hears its HTTP transport too (retries, ignored messages, a notification
// handler that threw), unless the HTTP options give the transport a `log` of its own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { initialize, startFaultServer, status } from "../_fault_server.ts";

/** Connect to a 2025 server whose first initialize answers 503; the log lines each side heard. */
async function retriedOnce(own: boolean): Promise<{ connection: string[]; transport: string[] }> {
  const fault = await startFaultServer();
  fault.lifecycle = true; // server/discover refused: initialize follows
  fault.script(status(503, "busy"), initialize());
  const connection: string[] = [];
  const transport: string[] = [];
  try {
    const client = await connect({ name: "busy", url: fault.url }, {
      log: (line) => connection.push(line),
      http: { retryDelayMs: 10, ...(own ? { log: (line: string) => transport.push(line) } : {}) },
    });
    await client.close();
    return { connection, transport };
  } finally {
    await fault.close();
  }
}

test("a connection's log hears its transport's retries", async () => {
  const { connection } = await retriedOnce(false);
  assert.ok(
    connection.some((line) =>
      /^busy: initialize failed \(HttpError\); retry 1 in \d+ ms$/.test(line)
    ),
    connection.join("\n"),
  );
});

test("an HTTP log of its own takes the transport's lines instead", async () => {
  const { connection, transport } = await retriedOnce(true);
  assert.ok(transport.some((line) => /retry 1 in/.test(line)), transport.join("\n"));
  assert.ok(!connection.some((line) => /retry 1 in/.test(line)), connection.join("\n"));
});
