// Cancellation on every transport: aborting a call's signal (or its timer running out) settles the
// call at once and sends `notifications/cancelled` with the request id — over Streamable HTTP to
// server-everything (the server accepts it: 202), and over stdio to a probe that records it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { stdio } from "../../../lib/mcp/transport/stdio.ts";
import { startEverything, type TestServer } from "../_servers.ts";
import { fixture, ROOT, until } from "../_stdio_helpers.ts";

let http: TestServer;
let sse: TestServer;
let dir: string;

before(async () => {
  [http, sse] = await Promise.all([startEverything("streamableHttp"), startEverything("sse")]);
  dir = mkdtempSync(join(tmpdir(), "skillmux-cancel-"));
});
after(async () => {
  await Promise.all([http.close(), sse.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A fetch that records every JSON-RPC message posted and the status it got. */
function recordingFetch() {
  const posted: Array<{ body: Record<string, unknown>; status: number }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await globalThis.fetch(input, init);
    if (init?.method === "POST" && typeof init.body === "string") {
      posted.push({ body: JSON.parse(init.body), status: response.status });
    }
    return response;
  };
  return { posted, fetch };
}

const LONG = "trigger-long-running-operation";

for (const kind of ["streamable-http", "sse"] as const) {
  describe(`${kind}: cancellation`, () => {
    test("abort: settles at once as AbortError and the server gets notifications/cancelled", async () => {
      const { posted, fetch } = recordingFetch();
      const url = kind === "sse" ? sse.url : http.url;
      const client = await connect({ name: "ev", url, transport: kind }, { http: { fetch } });
      try {
        const controller = new AbortController();
        let aborted = 0;
        const pending = client.callTool(LONG, { duration: 20, steps: 20 }, {
          signal: controller.signal,
          onProgress: () => {
            aborted ||= performance.now();
            controller.abort();
          },
        });
        const error = await pending.catch((e) => e);
        const settledIn = performance.now() - aborted;
        assert.ok(settledIn < 500, `settled ${Math.round(settledIn)} ms after the abort`);
        assert.equal(error.name, "AbortError", String(error));
        const call = posted.find((p) => p.body.method === "tools/call")!;
        assert.ok(
          await until(() => posted.some((p) => p.body.method === "notifications/cancelled")),
          "no notifications/cancelled was posted",
        );
        const cancel = posted.find((p) => p.body.method === "notifications/cancelled")!;
        assert.deepEqual(cancel.body.params, {
          requestId: call.body.id,
          reason: "aborted by the client",
        });
        assert.equal(cancel.status, 202, "the server accepted the notification");
        // The connection is still usable.
        const echo = await client.callTool("echo", { message: "after" });
        assert.match(JSON.stringify(echo.content), /after/);
      } finally {
        await client.close();
      }
    });

    test("the call timer running out cancels too", async () => {
      const { posted, fetch } = recordingFetch();
      const url = kind === "sse" ? sse.url : http.url;
      const client = await connect({ name: "ev", url, transport: kind }, { http: { fetch } });
      try {
        const error = await client.callTool(LONG, { duration: 5, steps: 1 }, { timeoutMs: 500 })
          .catch((e) => e);
        assert.ok(isMcpError(error, "TimeoutError"), String(error));
        assert.ok(
          await until(() => posted.some((p) => p.body.method === "notifications/cancelled")),
        );
        const cancel = posted.find((p) => p.body.method === "notifications/cancelled")!;
        assert.equal((cancel.body.params as { reason: string }).reason, "timed out");
      } finally {
        await client.close();
      }
    });
  });
}

describe("stdio: cancellation", () => {
  test("abort: settles at once and the server receives notifications/cancelled", async () => {
    const log = join(dir, "cancelled.jsonl");
    const probe = fixture("cancel_probe.ts", log);
    const client = await connect({ name: "probe", ...probe, cwd: ROOT }, { stdio: stdio() });
    try {
      const controller = new AbortController();
      const pending = client.callTool("wait", {}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      const start = performance.now();
      const error = await pending.catch((e) => e);
      assert.equal(error.name, "AbortError", String(error));
      assert.ok(performance.now() - start < 1_500);
      const read = () => {
        try {
          return readFileSync(log, "utf8");
        } catch {
          return "";
        }
      };
      assert.ok(await until(() => read() !== ""), "the probe recorded no cancellation");
      const [cancel] = read().trim().split("\n").map((line) => JSON.parse(line));
      assert.equal(typeof cancel.requestId, "number");
      assert.equal(cancel.reason, "aborted by the client");
    } finally {
      await client.close();
    }
  });

  test("a tool call that times out is cancelled; the child lives on", async () => {
    const log = join(dir, "timed-out.jsonl");
    const probe = fixture("cancel_probe.ts", log);
    const client = await connect({ name: "probe", ...probe, cwd: ROOT }, { stdio: stdio() });
    try {
      const error = await client.callTool("wait", {}, { timeoutMs: 300 }).catch((e) => e);
      assert.ok(isMcpError(error, "TimeoutError"), String(error));
      const read = () => {
        try {
          return readFileSync(log, "utf8");
        } catch {
          return "";
        }
      };
      assert.ok(await until(() => read() !== ""), "the probe recorded no cancellation");
      assert.deepEqual((await client.listTools()).map((t) => t.name), ["wait"]);
    } finally {
      await client.close();
    }
  });
});
