// MCP servers as resolver sources (lib/resolve/mcp_source.ts), against real SDK servers serving
// skill:// resources, a stdio server and scripted servers: priority and labels, a warm resolve's
// cost, the listing's TTL, dead servers and bad content as diagnostics, cooldowns, stdio start-up
// and disposal; sources made from a registry keep its order, leave disabled servers out, take the
// caller's connection options and the registry's hint. Over 300 lines: the source in a resolver.
// Its own rules: mcp_source_extension, _resources, _session and _listing.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { stdio } from "../../lib/mcp/transport/stdio.ts";
import { createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import {
  createMcpSkillSource,
  createMcpSkillSources,
  type McpSkillSource,
} from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { deadUrl } from "../_closed_port.ts";
import { waitUntil } from "../_wait.ts";
import { hangHeaders, startFaultServer, status } from "../mcp/_fault_server.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { fixture, gone, pidFile, ROOT } from "../mcp/_stdio_helpers.ts";
import { countingSource, mcpSources, skillDoc, withStub } from "./_helpers.ts";
import { withLab } from "./_lab.ts";

let a: SdkServer;
let b: SdkServer;
let broken: SdkServer;
const sources: McpSkillSource[] = [];
const source = (name: string, url: string, ttlMs?: number) => {
  const created = createMcpSkillSource({ name, url }, { ttlMs });
  sources.push(created);
  return created;
};
const count = (server: SdkServer) => server.requests.length;

before(async () => {
  [a, b, broken] = await Promise.all([
    startSdkServer({
      json: true,
      skills: { star: skillDoc("star", "STAR from a. Use when mapping RNA-seq.") },
    }),
    startSdkServer({
      json: true,
      skills: {
        star: skillDoc("star", "STAR from b. Use when mapping RNA-seq."),
        bwa: skillDoc("bwa", "BWA from b. Use when aligning."),
      },
    }),
    startSdkServer({
      json: true,
      skills: { bwa: "---\nname: bwa\n---\nno description\n", huge: "x".repeat(300_000) },
    }),
  ]);
});
after(async () => {
  await Promise.all(sources.map((s) => s.dispose()));
  await Promise.all([a.close(), b.close(), broken.close()]);
});

describe("MCP skill sources", () => {
  test("user > MCP (registration order) > builtin, labelled mcp:<server>; lower sources untouched", async () => {
    const user = countingSource("user", { samtools: skillDoc("samtools") });
    const mcp = [source("a", a.url), source("b", b.url)];
    const builtin = createBuiltinSource();
    const resolver = createResolver({ sources: [user, mcp, builtin] });
    const before = [count(a), count(b)];
    assert.equal((await resolver.resolve("samtools")).source, "user");
    assert.deepEqual(
      [count(a), count(b)],
      before,
      "MCP servers are not asked when the user has the skill",
    );

    const star = await resolver.resolve("star");
    assert.deepEqual([star.source, star.location], ["mcp:a", "skill://star"]);
    assert.equal(star.skill.description, "STAR from a. Use when mapping RNA-seq.");
    assert.equal((await resolver.resolve("bwa")).source, "mcp:b");
    assert.equal((await resolver.resolve("fastqc")).source, "builtin");

    const { skills } = await resolver.list();
    const row = (name: string) => skills.find((s) => s.name === name)!;
    assert.deepEqual([row("star").source, row("star").shadows], ["mcp:a", ["mcp:b", "builtin"]]);
    assert.deepEqual([row("bwa").source, row("bwa").shadows], ["mcp:b", ["builtin"]]);
  });

  test("a warm resolve costs at most one request per server", async () => {
    const mcp = [source("a", a.url), source("b", b.url)];
    const resolver = createResolver({ sources: [mcp] });
    await resolver.resolve("bwa"); // cold: connect + list on both, read on b
    const warm = [count(a), count(b)];
    assert.equal((await resolver.resolve("bwa")).source, "mcp:b");
    assert.equal((await resolver.resolve("star")).source, "mcp:a");
    const used = [count(a) - warm[0], count(b) - warm[1]];
    assert.ok(used[0] <= 2 && used[1] <= 2, `two warm resolves used ${used} requests`);
    const reads = [...a.requests.slice(warm[0]), ...b.requests.slice(warm[1])].map((r) => r.rpc);
    assert.ok(reads.every((m) => m === "resources/read"), JSON.stringify(reads));
  });

  test("the listing is re-fetched once its TTL has passed", async () => {
    const resolver = createResolver({ sources: [[source("a0", a.url, 0)]] });
    await resolver.resolve("star");
    const lists = () => a.requests.filter((r) => r.rpc === "resources/list").length;
    const before = lists();
    await resolver.resolve("star");
    assert.equal(lists(), before + 1);
  });

  test("a dead server and invalid or oversized remote content are diagnostics; resolution goes on", async () => {
    const dead = source("dead", await deadUrl());
    const bad = source("broken", broken.url);
    const resolver = createResolver({ sources: [[dead, bad, source("b2", b.url)]] });
    const hit = await resolver.resolve("bwa");
    assert.equal(hit.source, "mcp:b2");
    assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.problem]), [["mcp:dead", "error"], [
      "mcp:broken",
      "invalid",
    ]]);
    assert.match(hit.diagnostics[1].message, /description/);
    const error = await createResolver({ sources: [[bad]] }).resolve("huge").catch((e) => e);
    assert.equal(error.name, "SkillNotFoundError");
    assert.match(error.diagnostics[0].message, /262144|256 KiB|too large|cap/i);
  });

  test("a server that failed to connect is skipped until its cooldown ends", async () => {
    const fault = await startFaultServer();
    fault.fallback = status(500, "down for maintenance");
    try {
      const flaky = createMcpSkillSource({ name: "flaky", url: fault.url }, {
        retryAfterMs: 60_000,
      });
      sources.push(flaky);
      const resolver = createResolver({ sources: [[flaky, source("b3", b.url)]] });
      const first = await resolver.resolve("bwa");
      const tried = fault.received.length;
      assert.ok(tried >= 1);
      const second = await resolver.resolve("bwa");
      assert.equal(fault.received.length, tried, "no new attempt during the cooldown");
      assert.equal(second.source, "mcp:b3");
      assert.match(
        second.diagnostics[0].message,
        /down for maintenance.*skipped; next attempt in \d+ s/,
      );
      assert.equal(first.diagnostics[0].source, "mcp:flaky");
    } finally {
      await fault.close();
    }
  });

  test("sources from a registry follow its order and skip disabled servers", async () => {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.import([
      { name: "first", url: a.url },
      { name: "off", url: b.url, enabled: false },
      { name: "second", url: b.url.replace("127.0.0.1", "localhost") },
    ]);
    const mcp = await createMcpSkillSources(registry);
    sources.push(...mcp);
    assert.deepEqual(mcp.map((s) => s.label), ["mcp:first", "mcp:second"]);
    assert.equal((await createResolver({ sources: [mcp] }).resolve("star")).source, "mcp:first");
  });
});

test("a slow stdio server keeps starting when the resolver stops waiting: one start, then it answers", async () => {
  const file = await pidFile();
  const slow = createMcpSkillSource({
    name: "slow",
    ...fixture("sdk_server.ts", "--delay", "1500", "--pids", file.path),
    cwd: ROOT,
  }, { connect: { stdio: stdio() } });
  try {
    const resolver = createResolver({ sources: [[slow]], timeoutMs: 300 });
    const first = await resolver.list();
    assert.deepEqual(first.diagnostics.map((d) => [d.source, d.problem]), [[
      "mcp:slow",
      "timeout",
    ]]);
    // The start goes on under the server's start-up allowance; a later list finds it ready.
    let later = first;
    for (let i = 0; i < 100 && later.diagnostics.length > 0; i++) {
      await new Promise((done) => setTimeout(done, 100));
      later = await resolver.list();
    }
    assert.deepEqual(later.diagnostics, [], "the server never answered");
    assert.equal((await file.pids()).length, 1, "the server was started more than once");
  } finally {
    await slow.dispose();
    await file.done();
  }
});

test("disposing a source stops a stdio server that is still starting", async () => {
  const file = await pidFile();
  const slow = createMcpSkillSource({
    name: "slow",
    ...fixture("sdk_server.ts", "--delay", "30000", "--pids", file.path),
    cwd: ROOT,
  }, { connect: { stdio: stdio() } });
  try {
    const resolver = createResolver({ sources: [[slow]], timeoutMs: 200 });
    await resolver.list();
    let pid: number | undefined;
    for (let i = 0; i < 100 && pid === undefined; i++) {
      await new Promise((done) => setTimeout(done, 100));
      [pid] = await file.pids();
    }
    assert.ok(pid !== undefined, "the server never started");
    await slow.dispose();
    assert.ok(await gone(pid), "the starting server outlived dispose()");
  } finally {
    await slow.dispose();
    await file.done();
  }
});

describe("sources from a registry: connection options, disposal, hints and discovery", () => {
  const { source, keep, disposeAll } = mcpSources();
  const signal = () => new AbortController().signal;
  after(disposeAll);

  test("get the caller's connection options", async () => {
    await withStub({}, true, async (stub) => {
      const registry = createServerRegistry({ storage: createMemoryStorage() });
      await registry.import([{ name: "lab", url: stub.url }]);
      const [strict] = await createMcpSkillSources(registry, {
        connect: { urlPolicy: { mode: "strict" } },
      });
      keep(strict);
      const error = await createResolver({ sources: [strict] }).resolve("star").catch((e) => e);
      assert.equal(error.name, "SkillNotFoundError");
      assert.match(error.diagnostics[0].message, /127\.0\.0\.1|loopback|private|policy/i);
      assert.deepEqual(stub.calls, [], "refused before connecting");
    });
  });

  test("dispose while a connect is failing resolves", async () => {
    const fault = await startFaultServer();
    fault.script(hangHeaders());
    try {
      const team = source(fault.url);
      const listing = team.list({ signal: AbortSignal.timeout(100) });
      const [listed, disposed] = await Promise.allSettled([listing, team.dispose()]);
      assert.equal(listed.status, "rejected");
      assert.deepEqual(disposed, { status: "fulfilled", value: undefined });
    } finally {
      await fault.close();
    }
  });

  test("leave disabled servers out, use the registry's hint, and drop its discovery on a change", async () => {
    await withLab(async (lab) => {
      const storage = createMemoryStorage();
      const registry = createServerRegistry({ storage });
      await registry.import([
        { name: "lab", url: lab.url },
        { name: "off", url: `${lab.fault.origin}/off`, enabled: false },
      ]);
      // What an earlier process learnt of the server, as the registry keeps it: this process
      // never connected to it, so only the registry's hint can spare the era probe.
      const legacy = { era: "legacy", transport: "streamable-http", protocolVersion: "2025-11-25" };
      await storage.set(
        "cache/mcp/lab.json",
        JSON.stringify({
          name: "lab",
          discoveredAt: new Date().toISOString(),
          serverInfo: { name: "lab", version: "1.0.0" },
          protocolVersion: "2025-11-25",
          transport: "streamable-http",
          tools: [],
          resources: [],
          resourceTemplates: [],
          hint: legacy,
        }),
      );
      assert.deepEqual((await registry.discovery("lab"))?.hint, legacy);
      const logs: string[] = [];
      const made = await createMcpSkillSources(registry, {
        watch: true,
        connect: { log: (line) => logs.push(line) },
      });
      keep(...made);
      assert.deepEqual(made.map((s) => s.server.name), ["lab"]);
      assert.deepEqual(await made[0].list({ signal: signal() }), ["star"]);
      const asked = lab.fault.received.map((r) => r.rpc?.method);
      assert.ok(asked.includes("initialize"), asked.join(" "));
      assert.ok(!asked.includes("server/discover"), `no era probe: ${asked.join(" ")}`);
      await waitUntil(() => lab.streams.length >= 1, 10_000);
      lab.notify("notifications/resources/list_changed");
      let dropped = false;
      for (let i = 0; i < 500 && !dropped; i++) {
        dropped = (await registry.discovery("lab")) === undefined;
        if (!dropped) await new Promise((r) => setTimeout(r, 20)); // bounded: 10 s
      }
      assert.ok(dropped, "the registry's discovery was dropped");
      assert.deepEqual(logs.filter((line) => /threw/.test(line)), []);
    });
  });
});
