// The stdio transport against small scripted servers: framing, id correlation,
// server requests, timeouts that kill, exits, spawn failures, giant lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { createStdioTransport, type StdioTransport } from "../../../lib/mcp/transport/stdio.ts";
import type { JsonRpcNotification, Progress } from "../../../lib/mcp/protocol/types.ts";
import { alive, fixture, gone, rpc, stdioServer, until } from "../_stdio_helpers.ts";

function echo(flags: string[] = [], diagnostics: string[] = []): StdioTransport {
  return createStdioTransport(stdioServer("echo", fixture("echo_server.ts", ...flags)), {
    onDiagnostic: (message) => diagnostics.push(message),
  });
}

test("requests are answered by id; concurrent requests resolve to their own answers", async () => {
  const transport = echo();
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => transport.request(rpc(i + 1, "echo", { i }), { timeoutMs: 30_000 }),
      ),
    );
    answers.forEach((answer, i) => {
      assert.equal(answer.id, i + 1);
      assert.deepEqual("result" in answer && answer.result, { echo: { i } });
    });
    const text = await transport.request(rpc("a-string-id", "echo", { s: "é😀" }), {
      timeoutMs: 30_000,
    });
    assert.deepEqual("result" in text && text.result, { echo: { s: "é😀" } });
    assert.equal(transport.kind, "stdio");
    assert.equal(transport.sessionId, undefined);
    transport.setProtocolVersion("2025-11-25");
    transport.resetSession();
  } finally {
    await transport.close();
  }
});

test("a JSON-RPC error answer resolves; an answer with neither result nor error is a ProtocolError", async () => {
  const transport = echo();
  try {
    const failed = await transport.request(rpc(1, "fail"), { timeoutMs: 30_000 });
    assert.deepEqual("error" in failed && failed.error, {
      code: -32000,
      message: "it failed",
      data: { x: 1 },
    });
    const bad = await transport.request(rpc(2, "no-result"), { timeoutMs: 30_000 }).catch((e) => e);
    assert.ok(isMcpError(bad, "ProtocolError"), String(bad));
    const batched = await transport.request(rpc(3, "batch"), { timeoutMs: 30_000 });
    assert.deepEqual("result" in batched && batched.result, { batched: true });
  } finally {
    await transport.close();
  }
});

test("a banner line before the JSON is reported as a diagnostic and skipped", async () => {
  const diagnostics: string[] = [];
  const transport = echo(["banner"], diagnostics);
  try {
    const answer = await transport.request(rpc(1, "echo", { ok: true }), { timeoutMs: 30_000 });
    assert.deepEqual("result" in answer && answer.result, { echo: { ok: true } });
    assert.ok(
      diagnostics.some((d) => d.includes("not JSON") && d.includes("Fixture server v1.0")),
      diagnostics.join("\n"),
    );
  } finally {
    await transport.close();
  }
});

test("a response with a wrong id is ignored, never misrouted", async () => {
  const diagnostics: string[] = [];
  const transport = echo(["wrong-id"], diagnostics);
  try {
    const answer = await transport.request(rpc(7, "echo", { n: 7 }), { timeoutMs: 30_000 });
    assert.deepEqual("result" in answer && answer.result, { echo: { n: 7 } });
    assert.ok(diagnostics.some((d) => d.includes("unknown id 1007")), diagnostics.join("\n"));
  } finally {
    await transport.close();
  }
});

test("a request answered only with a wrong id times out, and the wedged child is killed", async () => {
  const transport = echo(["wrong-id"]);
  const error = await transport.request(rpc(1, "silent"), { timeoutMs: 300 }).catch((e) => e);
  assert.ok(isMcpError(error, "TimeoutError"), String(error));
  assert.ok(await gone(transport.pid!), "child still running after the timeout");
  await transport.close();
});

test("server requests: ping is answered with {}, anything else with -32601", async () => {
  const transport = echo();
  try {
    const ping = await transport.request(rpc(1, "ask", { method: "ping" }), { timeoutMs: 30_000 });
    assert.deepEqual("result" in ping && ping.result.answer, {
      jsonrpc: "2.0",
      id: "s1",
      result: {},
    });
    const other = await transport.request(rpc(2, "ask", { method: "sampling/createMessage" }), {
      timeoutMs: 30_000,
    });
    const reply = "result" in other
      ? other.result.answer as { error: { code: number } }
      : undefined;
    assert.equal(reply?.error.code, -32601);
  } finally {
    await transport.close();
  }
});

test("progress goes to the request's onProgress (token injected); other notifications to onNotification", async () => {
  const transport = echo();
  const seen: JsonRpcNotification[] = [];
  transport.onNotification = (message) => seen.push(message);
  try {
    const progress: Progress[] = [];
    const done = await transport.request(rpc(1, "progress"), {
      timeoutMs: 30_000,
      onProgress: (p) => progress.push(p),
    });
    assert.deepEqual("result" in done && done.result, { done: true });
    assert.deepEqual(progress, [{ progress: 1, total: 3 }, { progress: 2, total: 3 }, {
      progress: 3,
      total: 3,
    }]);
    await transport.request(rpc(2, "notify"), { timeoutMs: 30_000 });
    assert.deepEqual(seen.map((m) => m.method), ["notifications/message"]);
  } finally {
    await transport.close();
  }
});

test("notify writes without waiting for an answer", async () => {
  const transport = echo();
  try {
    await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const answer = await transport.request(rpc(1, "echo"), { timeoutMs: 30_000 });
    assert.ok("result" in answer);
  } finally {
    await transport.close();
  }
});

test("an aborted request rejects with the reason; the transport keeps working", async () => {
  const transport = echo();
  try {
    const controller = new AbortController();
    const pending = transport.request(rpc(1, "silent"), {
      signal: controller.signal,
      timeoutMs: 30_000,
    });
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 50);
    assert.equal(await pending.catch((e) => e), reason);
    const answer = await transport.request(rpc(2, "echo"), { timeoutMs: 30_000 });
    assert.ok("result" in answer);
    const cancelled = () =>
      transport.stderrTail().some((l) => l.startsWith("cancelled") && l.includes('"requestId":1'));
    assert.ok(await until(cancelled), "the server never saw notifications/cancelled");
  } finally {
    await transport.close();
  }
});

test("close() rejects pending requests, reaps the child and is idempotent; later requests fail", async () => {
  const transport = echo();
  const pending = transport.request(rpc(1, "silent"), { timeoutMs: 30_000 }).catch((e) => e);
  await transport.request(rpc(2, "echo"), { timeoutMs: 30_000 });
  const pid = transport.pid!;
  assert.ok(alive(pid));
  await Promise.all([transport.close(), transport.close()]);
  const error = await pending;
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.equal(alive(pid), false, "child still present (zombie?) after close");
  await transport.close();
  const later = await transport.request(rpc(3, "echo")).catch((e) => e);
  assert.ok(isMcpError(later, "NetworkError"));
});

test("close() before any message starts nothing", async () => {
  const transport = echo();
  await transport.close();
  assert.equal(transport.pid, undefined);
});

test("a child that exits at once: NetworkError with exit code and stderr tail, secrets redacted", async () => {
  const secret = "tok-SECRET-12345";
  const server = stdioServer("early", fixture("exit_early.ts"), { env: { FIXTURE_TOKEN: secret } });
  const transport = createStdioTransport(server);
  const error = await transport.request(rpc(1, "initialize"), { timeoutMs: 30_000 }).catch((e) =>
    e
  );
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.equal(error.server, "early");
  assert.match(error.message, /exited with code 3/);
  assert.match(error.message, /fatal: no configuration found/);
  assert.match(error.message, /using token \[redacted\]/);
  assert.ok(!error.message.includes(secret));
  const again = await transport.request(rpc(2, "ping")).catch((e) => e);
  assert.ok(isMcpError(again, "NetworkError"));
  await transport.close();
  assert.equal(alive(transport.pid!), false);
});

test("a child that exits while a request is pending rejects it with the exit", async () => {
  const transport = echo();
  const error = await transport.request(rpc(1, "exit", { code: 9 }), { timeoutMs: 30_000 }).catch((
    e,
  ) => e);
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.match(error.message, /exited with code 9/);
  assert.match(error.message, /exiting on request/);
  await transport.close();
});

test("a missing command: a NetworkError naming the command", async () => {
  const server = stdioServer("missing", { command: "skillmux-no-such-command-7f3a", args: [] });
  const transport = createStdioTransport(server);
  const error = await transport.request(rpc(1, "initialize"), { timeoutMs: 30_000 }).catch((e) =>
    e
  );
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.match(error.message, /"skillmux-no-such-command-7f3a" was not found/);
  await transport.close();
});

test("a server that never answers: the start-up allowance rejects with TimeoutError, quoting stderr, and stops it", async () => {
  const server = stdioServer("hang", fixture("hang.ts"));
  // Long enough for the fixture's runtime to start and say "hanging" on stderr.
  const transport = createStdioTransport(server, { startupTimeoutMs: 2_000 });
  // The request's own 100 ms would count from the start, which never comes: the allowance rules.
  const error = await transport.request(rpc(1, "initialize"), { timeoutMs: 100 }).catch((e) => e);
  assert.ok(isMcpError(error, "TimeoutError"), String(error));
  assert.match(error.message, /did not start: no answer within its 2000 ms start-up allowance/);
  assert.match(error.message, /stderr \(last \d+ lines?\):\n {2}hanging/);
  assert.equal(transport.started, false);
  assert.ok(transport.pid !== undefined);
  assert.ok(await gone(transport.pid), "child still running after the allowance");
  const later = await transport.request(rpc(2, "ping")).catch((e) => e);
  assert.equal(later, error, "later requests get the same start-up failure");
  await transport.close();
});

test("a child that ignores SIGTERM is killed with SIGKILL after killTimeoutMs", async () => {
  const server = stdioServer("stubborn", fixture("hang.ts", "ignore-sigterm"));
  const transport = createStdioTransport(server, { closeTimeoutMs: 100, killTimeoutMs: 200 });
  const pending = transport.request(rpc(1, "initialize"), { timeoutMs: 30_000 }).catch((e) => e);
  // Wait until the child has installed its SIGTERM handler (it says so on stderr).
  assert.ok(await until(() => transport.stderrTail().includes("hanging")));
  const pid = transport.pid!;
  await transport.close();
  assert.ok(isMcpError(await pending, "NetworkError"));
  assert.equal(alive(pid), false);
  assert.ok(transport.stderrTail().includes("ignoring SIGTERM"), "SIGTERM came before SIGKILL");
});

test("a stdout line over maxLineBytes is a ProtocolError and kills the child", async () => {
  const server = stdioServer("giant", fixture("giant_line.ts", String(64 * 1024)));
  const transport = createStdioTransport(server, { maxLineBytes: 16 * 1024 });
  const error = await transport.request(rpc(1, "initialize"), { timeoutMs: 30_000 }).catch((e) =>
    e
  );
  assert.ok(isMcpError(error, "ProtocolError"), String(error));
  assert.match(error.message, /longer than 16384 bytes/);
  assert.ok(await gone(transport.pid!));
  await transport.close();
});

test("the default cap is 4 MiB: a 5 MiB line is refused", async () => {
  const transport = createStdioTransport(stdioServer("giant", fixture("giant_line.ts")));
  const error = await transport.request(rpc(1, "initialize"), { timeoutMs: 30_000 }).catch((e) =>
    e
  );
  assert.ok(isMcpError(error, "ProtocolError"), String(error));
  assert.match(error.message, /longer than 4194304 bytes/);
  await transport.close();
});
