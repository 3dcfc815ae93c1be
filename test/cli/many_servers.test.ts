// Ten registered servers, three of them slow to start, through the CLI as a new user walks it:
// add, ping, tools, approve, catalog, call. Real servers from npm (server-everything over stdio,
// SSE and Streamable HTTP, server-filesystem, server-memory), the SDK's McpServer behind a wrapper
// that sleeps before it starts, and an SDK HTTP server. Every stdio server logs `start <pid>` when
// it starts and `term <pid>` if it is ever sent SIGTERM, so the test counts the starts of each
// command, sees that every close was the server's own exit on stdin close, and checks by pid in
// /proc that none is left.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startEverything, startSdkServer, type TestServer } from "../mcp/_servers.ts";
import { alive, fixture } from "../mcp/_stdio_helpers.ts";
import { cli, ROOT, tempHome } from "./_helpers.ts";

const home = await tempHome();
const logs = join(home.dir, "logs");
const http: TestServer[] = [];
const SLOW: Record<string, number> = { "slow-1": 1_500, "slow-2": 2_000, "slow-3": 2_500 };
const COUNTED = fileURLToPath(new URL("../mcp/_stdio_fixtures/counted.mjs", import.meta.url));
const pkg = (name: string) =>
  join(ROOT, "node_modules/@modelcontextprotocol", name, "dist/index.js");
const quote = (args: string[]) => args.map((a) => JSON.stringify(a)).join(" ");

/** The stdio servers: name → the command line `mcp add --command` takes. */
function stdioServers(): Record<string, string> {
  const log = (name: string) => join(logs, `${name}.log`);
  const counted = (name: string, ...args: string[]) =>
    quote([process.execPath, COUNTED, log(name), ...args]);
  const sdk = (name: string, ...extra: string[]) => {
    const { command, args } = fixture(
      "sdk_server.ts",
      "--log",
      log(name),
      "--name",
      name,
      ...extra,
    );
    return quote([command, ...args]);
  };
  return {
    "everything-stdio": counted("everything-stdio", pkg("server-everything"), "stdio"),
    filesystem: counted("filesystem", pkg("server-filesystem"), home.dir),
    memory: counted("memory", pkg("server-memory")),
    fast: sdk("fast"),
    ...Object.fromEntries(
      Object.entries(SLOW).map(([name, ms]) => [name, sdk(name, "--delay", String(ms))]),
    ),
  };
}

/** Each stdio server's log lines so far. */
async function events(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(stdioServers())) {
    const text = await readFile(join(logs, `${name}.log`), "utf8").catch(() => "");
    out[name] = text.split("\n").filter(Boolean);
  }
  return out;
}

/** Run `argv`; return its result and how many times each stdio server started meanwhile. */
async function counting(argv: string[]) {
  const before = await events();
  const result = await cli(argv, home.env);
  const now = await events();
  const starts: Record<string, number> = {};
  for (const [name, lines] of Object.entries(now)) {
    const fresh = lines.slice(before[name].length);
    const started = fresh.filter((l) => l.startsWith("start "));
    if (started.length > 0) starts[name] = started.length;
    // Every close was the server's own exit when its stdin closed: none needed a signal (the
    // answers a server still waited for, server-filesystem's roots/list, are written first). But
    // server-everything: to a client that declares roots (the CLI does) it sends roots/list
    // 350 ms after initialization, when a short command may have closed already, and waits for
    // the answer, so it stays after its stdin closes: it gets SIGTERM as soon as it asks (the
    // SDK client's close waits 2 s there before SIGTERM).
    if (name !== "everything-stdio") {
      assert.deepEqual(fresh.filter((l) => l.startsWith("term ")), [], `${name} got SIGTERM`);
    }
    // And none is left running once the command is over.
    for (const line of started) {
      const pid = Number(line.split(" ")[1]);
      assert.equal(alive(pid), false, `${name} (pid ${pid}) outlived "${argv.join(" ")}"`);
    }
  }
  return { ...result, starts };
}

before(async () => {
  await (await import("node:fs/promises")).mkdir(logs, { recursive: true });
  http.push(await startEverything("sse"), await startEverything("streamableHttp"));
  http.push(await startSdkServer({ tools: 2 }));
});

after(async () => {
  await Promise.all(http.map((s) => s.close()));
  await home.close();
});

test(
  "ten servers, three slow: add, ping, tools, approve, catalog and call, each starting only what it needs",
  {
    timeout: 240_000,
  },
  async () => {
    // add: each server is started once, to discover it, however slowly it starts.
    for (const [name, line] of Object.entries(stdioServers())) {
      const added = await counting(["mcp", "add", name, "--command", line]);
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stdout, new RegExp(`Added "${name}".* tools`));
      assert.doesNotMatch(added.stdout, /vv\d/);
      assert.deepEqual(added.starts, { [name]: 1 });
    }
    const urls = {
      "everything-sse": http[0].url,
      "everything-http": http[1].url,
      sdk: http[2].url,
    };
    for (const [name, url] of Object.entries(urls)) {
      const added = await counting(["mcp", "add", name, url]);
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual(added.starts, {});
    }

    // ping: every server answers; no false "down"; each stdio server started once.
    const ping = await counting(["mcp", "ping"]);
    assert.equal(ping.code, 0, ping.stdout + ping.stderr);
    const rows = ping.stdout.trim().split("\n");
    assert.equal(rows.length, 10, ping.stdout);
    for (const row of rows) assert.match(row, /^✓ /, row);
    assert.doesNotMatch(ping.stdout, /\bdown\b|slow:|vv\d/);
    assert.deepEqual(
      ping.starts,
      Object.fromEntries(Object.keys(stdioServers()).map((name) => [name, 1])),
    );

    // tools, approve, catalog: from the discovery cached by add and ping: nothing starts.
    const tools = await counting(["tools", "--json"]);
    assert.equal(tools.code, 0, tools.stderr);
    const listed = JSON.parse(tools.stdout).tools as Array<{ server: string; approved: boolean }>;
    assert.deepEqual(
      [...new Set(listed.map((t) => t.server))].sort(),
      [...Object.keys(stdioServers()), ...Object.keys(urls)].sort(),
    );
    assert.ok(listed.every((t) => !t.approved), "remote tools are held until approved");
    assert.deepEqual(tools.starts, {});
    const approve = await counting(["approve", "--all"]);
    assert.equal(approve.code, 0, approve.stderr);
    assert.deepEqual(approve.starts, {});
    const left = await counting(["approve", "--json"]);
    assert.deepEqual(JSON.parse(left.stdout).held, []);
    const catalog = await counting(["catalog", "--json"]);
    assert.equal(catalog.code, 0, catalog.stderr);
    assert.deepEqual(JSON.parse(catalog.stdout).diagnostics, []);
    assert.deepEqual(catalog.starts, {});

    // call: only the tool's own server starts, once, slow as it is.
    const call = await counting(["call", "slow-2__echo", '{"text":"hello from slow-2"}']);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout, "hello from slow-2\n");
    assert.deepEqual(call.starts, { "slow-2": 1 });
    const real = await counting(["call", "memory__read_graph"]);
    assert.equal(real.code, 0, real.stderr);
    assert.deepEqual(real.starts, { memory: 1 });
  },
);
