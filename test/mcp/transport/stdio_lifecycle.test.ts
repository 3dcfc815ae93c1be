// How stdio servers start and stop, as hosts run them: one process per connect however slowly it
// starts (a start-up allowance apart from the request timeout, its stderr reported meanwhile),
// and the spec's shutdown (close stdin, wait, SIGTERM, wait, SIGKILL), each step only as long as
// the server needs. Processes are counted by pid: the SDK fixture appends its pid to a file when
// it starts, and /proc says whether it is still there.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { connect } from "../../../lib/mcp/client/client.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import {
  createStdioTransport,
  stdio,
  type StdioStartupEvent,
} from "../../../lib/mcp/transport/stdio.ts";
import { alive, fixture, gone, pidFile, ROOT, rpc, stdioServer, until } from "../_stdio_helpers.ts";

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "t", version: "1" },
};

test("a slow start: one process, the request timeout counts from its start, its stderr reported meanwhile", async () => {
  const file = await pidFile();
  const events: StdioStartupEvent[] = [];
  const server = stdioServer(
    "slow",
    fixture("sdk_server.ts", "--delay", "1200", "--pids", file.path),
  );
  const transport = createStdioTransport(server, { onStartup: (event) => events.push(event) });
  try {
    // 300 ms is far less than the start: the answer still comes, from the one process.
    const answer = await transport.request(rpc(1, "initialize", INIT), { timeoutMs: 300 });
    assert.ok("result" in answer, JSON.stringify(answer));
    assert.equal(transport.started, true);
    assert.deepEqual(await file.pids(), [transport.pid]);
    const kinds = events.map((e) => e.type);
    assert.equal(kinds[0], "spawned");
    assert.equal(kinds.at(-1), "started");
    const lines = events.flatMap((e) => e.type === "stderr" ? [e.line] : []);
    assert.ok(lines.some((l) => l.startsWith("fetching the server")), lines.join("\n"));
    const started = events.at(-1) as Extract<StdioStartupEvent, { type: "started" }>;
    assert.ok(started.ms >= 1000, `started after ${started.ms} ms`);
    // After the start, stderr is no longer reported as start-up output.
    const count = events.length;
    await transport.request(rpc(2, "ping"), { timeoutMs: 2_000 });
    assert.equal(events.length, count);
  } finally {
    await transport.close();
    await file.done();
  }
  assert.ok(await gone(transport.pid!), "the server outlived close()");
});

test("connect() starts a slow stdio server once, with a request timeout shorter than its start", async () => {
  const file = await pidFile();
  const config = {
    name: "slow",
    ...fixture("sdk_server.ts", "--delay", "1500", "--pids", file.path),
    cwd: ROOT,
  };
  const client = await connect(config, { stdio: stdio(), timeoutMs: 400 });
  try {
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["echo", "count"]);
    const pids = await file.pids();
    assert.equal(pids.length, 1, `started ${pids.length} times`);
    assert.ok(alive(pids[0]));
  } finally {
    await client.close();
  }
  const [pid] = await file.pids();
  assert.equal(alive(pid), false, "close() resolved before the server was gone");
  await file.done();
});

test("a start-up allowance from the server's own configuration wins; the error quotes its stderr", async () => {
  const file = await pidFile();
  const config = {
    name: "too-slow",
    // 8 s: long enough for the fixture (Node with tsx) to print its first line on a loaded
    // machine, short against its 30 s delay and the option's 60 s.
    ...fixture("sdk_server.ts", "--delay", "30000", "--pids", file.path),
    cwd: ROOT,
    startupTimeoutMs: 8_000,
  };
  const error = await connect(config, { stdio: stdio({ startupTimeoutMs: 60_000 }) })
    .catch((e) => e);
  try {
    assert.ok(isMcpError(error, "TimeoutError"), String(error));
    assert.match(error.message, /"too-slow".*did not start.*8000 ms start-up allowance/s);
    // The fixture's stderr, as the error quotes it (its last lines: "still fetching…" by then).
    assert.match(
      error.message,
      /\nstderr \(last \d+ lines\):\n {2}(fetching the server|still fetching)/,
    );
    const pids = await file.pids();
    assert.equal(pids.length, 1, `started ${pids.length} times`);
    assert.ok(await gone(pids[0]), "the server that did not start was left running");
  } finally {
    await file.done();
  }
});

test("close(): a server that exits when its stdin closes is never signalled, and close waits only for it", async () => {
  const server = stdioServer(
    "polite",
    fixture("sdk_server.ts", "--exit-delay", "300", "--sigterm", "log"),
  );
  // Waits far longer than the server needs: close must end when the server does, not after them.
  const transport = createStdioTransport(server, { closeTimeoutMs: 5_000, killTimeoutMs: 5_000 });
  await transport.request(rpc(1, "initialize", INIT), { timeoutMs: 10_000 });
  const pid = transport.pid!;
  const began = Date.now();
  await transport.close();
  const took = Date.now() - began;
  assert.equal(alive(pid), false);
  const tail = transport.stderrTail();
  assert.ok(tail.includes("stdin closed"), tail.join("\n"));
  assert.ok(!tail.includes("got SIGTERM"), "SIGTERM was sent to a server that was exiting");
  assert.ok(took >= 250 && took < 4_000, `close took ${took} ms for a 300 ms exit`);
});

test("close(): a server that stays after stdin closes gets SIGTERM after closeTimeoutMs", async () => {
  const server = stdioServer(
    "stays",
    fixture("sdk_server.ts", "--stay", "--sigterm", "log"),
    { closeTimeoutMs: 200 },
  );
  // The server's own closeTimeoutMs wins over the option's.
  const transport = createStdioTransport(server, { closeTimeoutMs: 30_000 });
  await transport.request(rpc(1, "initialize", INIT), { timeoutMs: 10_000 });
  const pid = transport.pid!;
  await transport.close();
  assert.equal(alive(pid), false);
  const tail = transport.stderrTail();
  assert.ok(tail.indexOf("stdin closed") < tail.indexOf("got SIGTERM"), tail.join("\n"));
  assert.ok(tail.indexOf("stdin closed") >= 0);
});

test("close(): a server that ignores stdin and SIGTERM is killed with SIGKILL after the waits", async () => {
  const server = stdioServer(
    "stubborn",
    fixture("sdk_server.ts", "--stay", "--sigterm", "ignore"),
    { closeTimeoutMs: 150, killTimeoutMs: 300 },
  );
  const transport = createStdioTransport(server);
  await transport.request(rpc(1, "initialize", INIT), { timeoutMs: 10_000 });
  const pid = transport.pid!;
  await transport.close();
  assert.equal(alive(pid), false, "close() resolved with the server still there");
  const tail = transport.stderrTail();
  assert.ok(tail.includes("got SIGTERM"), tail.join("\n"));
  assert.ok(await until(() => !alive(pid), 100));
});

test("a server whose SIGTERM takes a while is waited for, not killed, within killTimeoutMs", async () => {
  const server = stdioServer(
    "slow-exit",
    fixture("sdk_server.ts", "--stay", "--sigterm", "slow:400"),
    { closeTimeoutMs: 100, killTimeoutMs: 5_000 },
  );
  const transport = createStdioTransport(server);
  await transport.request(rpc(1, "initialize", INIT), { timeoutMs: 10_000 });
  await transport.close();
  // It finished its own shutdown (a SIGKILL at the default 2 s would not cut it, but one at
  // close time would).
  const tail = transport.stderrTail();
  assert.ok(tail.includes("got SIGTERM"), tail.join("\n"));
  assert.ok(tail.includes("exiting after SIGTERM"), tail.join("\n"));
});

test("close() first writes the answers the server still waits for: server-filesystem asks for roots at once", async () => {
  const file = await pidFile();
  const counted = fileURLToPath(new URL("../_stdio_fixtures/counted.mjs", import.meta.url));
  const fs = `${ROOT}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
  const client = await connect(
    { name: "fs", command: process.execPath, args: [counted, file.path, fs, tmpdir()], cwd: ROOT },
    {
      stdio: stdio({ closeTimeoutMs: 10_000 }),
      // Declaring roots makes the server ask roots/list as soon as it is initialised.
      capabilities: { roots: {} },
      handlers: { roots: () => [{ uri: pathToFileURL(tmpdir()).href }] },
      listen: false,
    },
  );
  try {
    assert.ok((await client.listTools()).length > 5);
  } finally {
    const began = Date.now();
    await client.close();
    const took = Date.now() - began;
    const log = (await readFile(file.path, "utf8")).split("\n").filter(Boolean);
    await file.done();
    // Left without its answer, it would stay after its stdin closed, until SIGTERM at 10 s.
    assert.deepEqual(log.filter((l) => l.startsWith("term ")), [], log.join("\n"));
    assert.ok(took < 5_000, `close took ${took} ms`);
  }
});

test("close(): a server that asks a question after its stdin closed gets SIGTERM then, not after the wait", async () => {
  const file = await pidFile();
  const counted = fileURLToPath(new URL("../_stdio_fixtures/counted.mjs", import.meta.url));
  const everything = `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  const client = await connect(
    { name: "ev", command: process.execPath, args: [counted, file.path, everything, "stdio"] },
    {
      stdio: stdio({ closeTimeoutMs: 10_000 }),
      // To a client with roots, server-everything sends roots/list 350 ms after initialisation
      // and waits for the answer: closed before that, it stays after its stdin closes.
      capabilities: { roots: {} },
      handlers: { roots: () => [] },
      listen: false,
    },
  );
  assert.ok((await client.listTools()).length > 5);
  const began = Date.now();
  await client.close();
  const took = Date.now() - began;
  const log = (await readFile(file.path, "utf8")).split("\n").filter(Boolean);
  await file.done();
  assert.equal(log.filter((l) => l.startsWith("term ")).length, 1, log.join("\n"));
  assert.ok(took < 5_000, `close took ${took} ms, not cut short by the server's question`);
});
