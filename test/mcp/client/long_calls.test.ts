// Timeouts that fit the work, against server-everything over Streamable HTTP (2025-11-25):
// progress keeps a tools/call alive, silence ends it at the call timeout, the maximum total
// holds however much progress arrives, and time in a host handler (a person answering an
// elicitation form) counts against neither.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_CALL_TIMEOUT_MS } from "../../../lib/mcp/client/client.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import type { Progress } from "../../../lib/mcp/protocol/types.ts";
import { parseServersToml, toServersToml } from "../../../lib/mcp/registry/config_formats.ts";
import { everythingSuite } from "../_everything_suite.ts";

const { server: everything, connect } = everythingSuite();

const LONG = "trigger-long-running-operation";
const text = (result: { content: unknown }) => JSON.stringify(result.content);

describe("tools/call timeouts", () => {
  test("a 12 s tool reporting progress every 3 s completes with the default settings", async () => {
    const client = await connect({ name: "ev", url: everything().url });
    const seen: Progress[] = [];
    const result = await client.callTool(LONG, { duration: 12, steps: 4 }, {
      onProgress: (p) => seen.push(p),
    });
    assert.match(text(result), /Long running operation completed\. Duration: 12 seconds/);
    assert.deepEqual(seen.map((p) => p.progress), [1, 2, 3, 4]);
    assert.equal(DEFAULT_CALL_TIMEOUT_MS, 60_000);
  });

  test("progress resets the call timeout: 7.5 s of work under a 4 s timeout completes", async () => {
    // No onProgress given: the client asks for progress anyway, since it keeps the call alive.
    const client = await connect({ name: "ev", url: everything().url }, { callTimeoutMs: 4_000 });
    const result = await client.callTool(LONG, { duration: 7.5, steps: 3 });
    assert.match(text(result), /Duration: 7\.5 seconds/);
  });

  test("a call with no progress times out at the call timeout", async () => {
    const client = await connect({ name: "ev", url: everything().url }, { callTimeoutMs: 60_000 });
    const start = performance.now();
    const error = await client.callTool(LONG, { duration: 4, steps: 1 }, { timeoutMs: 1_000 })
      .catch((e) => e);
    const took = performance.now() - start;
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.match(error.message, /ev: tools\/call "trigger-long-running-operation" timed out/);
    assert.match(error.message, /no answer and no progress for 1000 ms/);
    assert.ok(took >= 950 && took < 3_000, `settled after ${Math.round(took)} ms`);
    // The connection is still usable.
    assert.match(text(await client.callTool("echo", { message: "still here" })), /still here/);
  });

  test("the maximum total holds however much progress arrives", async () => {
    const client = await connect({ name: "ev", url: everything().url }, { maxTotalMs: 60_000 });
    const start = performance.now();
    const seen: number[] = [];
    const error = await client.callTool(LONG, { duration: 6, steps: 12 }, {
      timeoutMs: 2_000,
      maxTotalMs: 2_500,
      onProgress: (p) => seen.push(p.progress),
    }).catch((e) => e);
    const took = performance.now() - start;
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.match(error.message, /ran longer than its 2500 ms maximum/);
    assert.ok(seen.length >= 3, `progress seen: ${seen.join(",")}`);
    assert.ok(took >= 2_400 && took < 4_500, `settled after ${Math.round(took)} ms`);
  });
});

describe("host handler time", () => {
  test("an 8 s elicitation handler fails neither the call timeout nor the maximum", async () => {
    let asked = 0;
    const client = await connect({ name: "ev", url: everything().url }, {
      callTimeoutMs: 2_000,
      maxTotalMs: 3_000,
      handlers: {
        async elicitation() {
          asked++;
          await new Promise((resolve) => setTimeout(resolve, 8_000));
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
    const result = await client.callTool("trigger-elicitation-request", {});
    assert.equal(asked, 1);
    assert.match(text(result), /Ada/);
  });
});

describe("per-server settings", () => {
  test("a server's callTimeoutMs (its registry entry) wins over the client's", async () => {
    const [server] = parseServersToml(
      `[[mcp.servers]]\nname = "ev"\nurl = "${everything().url}"\ncall_timeout_ms = 1000\n`,
    );
    assert.equal(server.callTimeoutMs, 1_000);
    assert.match(toServersToml([server]), /call_timeout_ms = 1000/);
    const client = await connect(server, { callTimeoutMs: 60_000 });
    const error = await client.callTool(LONG, { duration: 3, steps: 1 }).catch((e) => e);
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.match(error.message, /no progress for 1000 ms/);
  });

  test("a timeout that is not a positive number of ms is refused before any I/O", async () => {
    const error = await connect({ name: "ev", url: everything().url, maxTotalMs: -5 })
      .catch((e) => e);
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    assert.match(error.message, /maxTotalMs must be a number of milliseconds/);
  });
});
