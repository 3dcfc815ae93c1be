// The server registry over real storage (fs, private) and real SDK servers.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseMcpServersJson, toMcpServersJson } from "../../../lib/mcp/registry/config_formats.ts";
import { createServerRegistry, type ServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import type { RegistryChange } from "../../../lib/mcp/registry/types.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";
import { deadUrl } from "../../_closed_port.ts";
import { stdio } from "../../../lib/mcp/transport/stdio.ts";
import { fixture, ROOT } from "../_stdio_helpers.ts";

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} over MCP. Use when testing.\n---\n`;
const DEAD = await deadUrl(); // a closed port: connection refused

let home: string;
let up: SdkServer;
let registry: ServerRegistry;

before(async () => {
  home = await mkdtemp(join(tmpdir(), "skillmux-registry-"));
  up = await startSdkServer({ json: true, skills: { bwa: SKILL("bwa"), star: SKILL("star") } });
  registry = createServerRegistry({
    storage: createFsStorage({ root: join(home, "config"), private: true }),
  });
});
after(async () => {
  await up.close();
  await rm(home, { recursive: true, force: true });
});

describe("add", () => {
  test("validates, connects, discovers, then saves [[mcp.servers]] with mode 0600", async () => {
    const { server, discovery } = await registry.add({
      name: "team",
      url: up.url,
      apiKey: "sk-team-secret",
    });
    assert.equal(server.name, "team");
    assert.deepEqual(discovery?.resources.map((r) => r.uri), ["skill://bwa", "skill://star"]);
    assert.ok(discovery!.tools.length >= 2);
    assert.match(discovery!.discoveredAt, /^\d{4}-\d\d-\d\dT/);
    const file = join(home, "config", "config.toml");
    const text = await readFile(file, "utf8");
    assert.match(
      text,
      /\[\[mcp\.servers\]\]\nname = "team"\nurl = "http:\/\/127\.0\.0\.1:\d+\/mcp"\napi_key = "sk-team-secret"/,
    );
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(await registry.discovery("team"), discovery);
  });

  test("bad input and unreachable servers save nothing", async () => {
    const before = await registry.list();
    // Caught as made: awaiting them one by one would leave a later rejection unhandled a moment.
    const attempts = await Promise.all([
      registry.add({ name: "bad header", url: up.url }),
      registry.add({ name: "hdr", url: up.url, headers: { "Content-Type": "text/plain" } }),
      registry.add({ name: "dead", url: DEAD }),
      registry.add({ name: "team", url: DEAD.replace(/\/mcp$/, "/other") }),
      registry.add({ name: "same-url", url: up.url }),
    ].map((attempt) => attempt.catch((e) => e)));
    const kinds = attempts.map((e) => e.name);
    assert.deepEqual(kinds, [
      "PolicyError",
      "PolicyError",
      "NetworkError",
      "PolicyError",
      "PolicyError",
    ]);
    assert.deepEqual(await registry.list(), before);
  });

  test("an offline add (discover: false) saves without connecting", async () => {
    await registry.add({ name: "later", url: DEAD }, { discover: false });
    assert.deepEqual((await registry.list()).map((s) => s.name), ["team", "later"]);
  });
});

describe("ping and refresh", () => {
  test("one row per server; a dead one never hides the others; no secret in any error", async () => {
    const rows = await registry.ping();
    assert.deepEqual(rows.map((r) => [r.name, r.ok]), [["team", true], ["later", false]]);
    const [team, later] = rows;
    assert.ok(team.ok && later.ok === false);
    assert.equal(team.serverInfo.name, "skillmux-test");
    assert.equal(team.protocolVersion, "2025-11-25");
    assert.deepEqual([team.resources, team.transport], [2, "streamable-http"]);
    assert.ok(team.tools >= 2 && team.latencyMs >= 0);
    assert.equal(later.kind, "NetworkError");
    assert.equal(JSON.stringify(rows).includes("sk-team-secret"), false);
  });

  test("refresh re-discovers and caches with a new time", async () => {
    const first = await registry.discovery("team");
    await new Promise((r) => setTimeout(r, 5));
    const [row] = await registry.refresh(["team"]);
    assert.ok(row.ok);
    assert.ok(row.discovery.discoveredAt > first!.discoveredAt);
    assert.deepEqual(await registry.discovery("team"), row.discovery);
    await assert.rejects(registry.refresh(["nobody"]), /No server named "nobody"/);
  });
});

describe("ping and refresh of many stdio servers", () => {
  test("stdio servers start a few at a time (concurrency), each timed from its own turn", async () => {
    const log = join(home, "starts.log");
    const many = createServerRegistry({
      storage: createMemoryStorage(),
      connect: { stdio: stdio() },
    });
    for (let i = 1; i <= 5; i++) {
      const server = fixture("sdk_server.ts", "--delay", "500", "--log", log);
      await many.add({ name: `slow-${i}`, ...server, cwd: ROOT }, { discover: false });
    }
    // 300 ms per request: far less than a start, and than the wait for a turn.
    const rows = await many.ping(undefined, { concurrency: 2, timeoutMs: 300 });
    assert.deepEqual(
      rows.map((r) => [r.name, r.ok]),
      [1, 2, 3, 4, 5].map((i) => [`slow-${i}`, true]),
    );
    const lines = (await readFile(log, "utf8")).split("\n").filter((l) => /^(start|exit) /.test(l));
    let running = 0;
    let most = 0;
    for (const line of lines) {
      running += line.startsWith("start ") ? 1 : -1;
      most = Math.max(most, running);
    }
    assert.equal(lines.filter((l) => l.startsWith("start ")).length, 5, lines.join("\n"));
    assert.equal(most, 2, `${most} servers ran at once:\n${lines.join("\n")}`);
    const refreshed = await many.refresh(undefined, { concurrency: 1, timeoutMs: 300 });
    assert.ok(refreshed.every((r) => r.ok));
  });
});

describe("remove, import, export", () => {
  test("remove by name or by URL; nothing matching is an error", async () => {
    assert.equal((await registry.remove(DEAD)).name, "later");
    await assert.rejects(
      registry.remove("ghost"),
      (e: Error) => e.name === "PolicyError" && /"ghost"/.test(e.message),
    );
    assert.equal(await registry.discovery("later"), undefined);
  });

  test("import checks every entry before writing; export round-trips", async () => {
    const bad = parseMcpServersJson({
      mcpServers: {
        ok: { url: DEAD },
        evil: { url: "http://h", headers: { Cookie: "x" } },
      },
    });
    await assert.rejects(registry.import(bad), (e: Error) => e.name === "PolicyError");
    assert.deepEqual((await registry.list()).map((s) => s.name), ["team"]);
    const good = parseMcpServersJson({
      mcpServers: { fs: { command: "npx", args: ["-y", "server-fs"] } },
    });
    await registry.import(good);
    const exported = toMcpServersJson(await registry.list());
    assert.deepEqual(Object.keys(exported.mcpServers), ["team", "fs"]);
    assert.equal(JSON.stringify(exported).includes("sk-team-secret"), false);
    assert.deepEqual(parseMcpServersJson(exported)[1], {
      name: "fs",
      command: "npx",
      args: ["-y", "server-fs"],
    });
  });
});

describe("onChange", () => {
  test("a listener added before the first call hears changes; one stopped early hears none", async () => {
    // A fresh registry: its code loads with the first call, after both listeners are in place.
    const fresh = createServerRegistry({ storage: createMemoryStorage() });
    const heard: RegistryChange[] = [];
    const stopped: RegistryChange[] = [];
    fresh.onChange((change) => heard.push(change));
    const stop = fresh.onChange((change) => stopped.push(change));
    stop();
    fresh.onChange(() => {
      throw new Error("a listener's failure is its own");
    });
    await fresh.add({ name: "offline", url: "http://127.0.0.1:5/mcp" }, { discover: false });
    await fresh.remove("offline");
    assert.deepEqual(heard, [
      { kind: "servers", names: ["offline"] },
      { kind: "servers", names: ["offline"] },
    ]);
    assert.deepEqual(stopped, []);
  });
});
