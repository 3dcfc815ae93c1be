// Issue 27's table, library part: 8 SDK servers × 20 tools, each behind 50 ms per HTTP request,
// plus the built-in skills, every figure next to its peer or floor from the same run:
//  - catalog build cold (no discovery cached) and warm (discovery cached, nothing changed),
//    next to the SDK Client listing the same servers in parallel and the one-request floor;
//  - assemblePrompt connecting 3 servers, next to the SDK connecting them in parallel;
//  - SKILL.md reads of createCatalog and of select + assemble against a skills-extension server.
// Given another checkout's root (`node --import tsx bench/catalog_servers.ts /tmp/old`), its
// lib/ is measured instead, against the same servers (for before/after figures). The servers run
// in a child process (bench/_remote.ts; BENCH_SERVERS=in-process for the bench's own process).

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import process from "node:process";
import { serveSkills } from "../lib/server/mod.ts";
import { startRemoteServers } from "./_remote.ts";
import { fmt, quantile, runtime } from "./_stats.ts";
import { isMain } from "./_main.ts";

const SERVERS = 8;
const TOOLS = 20;
const LATENCY_MS = 50;
const RUNS = Number(process.env.RUNS ?? 7);

type Lib = typeof import("../lib/mod.ts");

/**
 * Median and spread (min–max) of `runs` timings of `fn`, and the median CPU time of the process
 * (the client's, and the servers' too when BENCH_SERVERS=in-process: less swayed by other load on
 * the machine than wall time).
 */
async function timed(fn: () => Promise<unknown>, runs = RUNS) {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await fn();
    times.push(performance.now() - start);
    const { user, system } = process.cpuUsage(used);
    cpu.push((user + system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    median: quantile(times, 0.5),
    min: times[0],
    max: times[times.length - 1],
    cpu: quantile(cpu, 0.5),
  };
}

const show = (m: { median: number; min: number; max: number; cpu: number }) =>
  `${fmt(m.median).padStart(10)} (${fmt(m.min)}–${fmt(m.max)}) cpu ${fmt(m.cpu)}`;

async function sdkList(url: string) {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

export async function benchCatalogServers(root = new URL("..", import.meta.url).pathname) {
  const lib: Lib = await import(`${root.replace(/\/$/, "")}/lib/mod.ts`);
  const remote = await startRemoteServers({
    count: SERVERS,
    latencyMs: LATENCY_MS,
    server: { json: true, tools: TOOLS },
  });
  const urls = remote.urls;
  const requests = () => remote.requests();
  const log: string[] = [];
  const skills = await serveSkills({ log: (line) => log.push(line) });
  const reads = () => log.filter((l) => l.split(" ")[2] === "resources/read").length;
  const builtin = lib.createResolver({ sources: [lib.createBuiltinSource()] });
  const registryOf = async () => {
    const registry = lib.createServerRegistry({ storage: lib.createMemoryStorage() });
    for (const [i, url] of urls.entries()) await registry.add({ name: `s${i}`, url });
    return registry;
  };
  const approvals = () => ({ storage: lib.createMemoryStorage(), remote: "first-sight" as const });
  try {
    console.log(
      `\n## Catalog over ${SERVERS} SDK servers × ${TOOLS} tools, +${LATENCY_MS} ms per request, ` +
        `plus the built-in skills (${runtime()}, median (min–max) of ${RUNS}; lib: ${root}; ` +
        `servers: ${remote.where})`,
    );
    const floor = await timed(() =>
      Promise.all(
        urls.map((url) =>
          fetch(url, {
            method: "POST",
            body: "{}",
            headers: { "content-type": "application/json" },
          })
            .then((r) => r.arrayBuffer())
        ),
      )
    );
    const sdk = await timed(() => Promise.all(urls.map(sdkList)));
    await lib.createCatalog({ resolver: builtin }); // the built-ins' first parse, once per process
    const registry = await registryOf();
    let before = await requests();
    // Cold: every server discovered again (discoveryMaxAgeMs 0), as with nothing cached.
    const cold = await timed(async () => {
      const catalog = await lib.createCatalog({
        resolver: builtin,
        registry,
        approvals: approvals(),
        discoveryMaxAgeMs: 0,
        follow: false,
      });
      if (catalog.entries.length < SERVERS * TOOLS) throw new Error("tools missing");
      catalog.dispose();
    });
    const coldRequests = (await requests() - before) / RUNS;
    // One more cold build, traced: each server's requests as they reached the proxy, in ms from
    // the build's start (arrival→answer), to show the round trips on the critical path.
    await remote.tracing(true);
    const now = () => performance.timeOrigin + performance.now();
    const t0 = now();
    const traced = await lib.createCatalog({
      resolver: builtin,
      registry,
      approvals: approvals(),
      discoveryMaxAgeMs: 0,
      follow: false,
    });
    const t1 = now();
    traced.dispose();
    await remote.tracing(false);
    const trace = await remote.trace();
    const at = (t: number) => (t - t0).toFixed(0);
    const firstArrival = Math.min(...trace.flat().map((r) => r.arrived));
    const lastAnswer = Math.max(...trace.flat().map((r) => r.answered));
    console.log(
      `cold build traced: ${(t1 - t0).toFixed(0)} ms; first request at ${at(firstArrival)} ms, ` +
        `last answer at ${at(lastAnswer)} ms, ${(t1 - lastAnswer).toFixed(0)} ms after it`,
    );
    for (const [i, rows] of trace.slice(0, 2).entries()) {
      console.log(
        `  s${i}: ` + rows.sort((a, b) => a.arrived - b.arrived)
          .map((r) => `${r.rpc} ${at(r.arrived)}→${at(r.answered)}`).join(", "),
      );
    }
    (await lib.createCatalog({ resolver: builtin, registry, follow: false })).dispose();
    before = await requests();
    const warm = await timed(async () =>
      (await lib.createCatalog({ resolver: builtin, registry, follow: false })).dispose()
    );
    const warmRequests = (await requests() - before) / RUNS;
    console.log(`one-request floor (1 POST per server, parallel)  ${show(floor)}`);
    console.log(`SDK Client connect + listTools, parallel         ${show(sdk)}`);
    console.log(
      `catalog build, cold                              ${show(cold)}  ${
        coldRequests.toFixed(0)
      } requests  ` +
        `${(cold.median / sdk.median).toFixed(2)}× SDK, ${
          (cold.median / floor.median).toFixed(2)
        }× floor`,
    );
    console.log(
      `catalog build, warm (discovery cached)           ${show(warm)}  ${
        warmRequests.toFixed(0)
      } requests  ` +
        `target ≤ 10 ms`,
    );

    // assemblePrompt connecting 3 servers, next to the SDK connecting the same 3 in parallel.
    const catalog = await lib.createCatalog({
      registry,
      approvals: approvals(),
      follow: false,
    });
    const ids = [0, 1, 2].map((i) => `s${i}__dummy-1`).filter((id) => catalog.get(id));
    const selection = {
      via: "llm" as const,
      complexity: "simple" as const,
      skills: [],
      tools: ids,
      needsExternal: false,
      reasoning: "",
      diagnostics: [],
    };
    const assemble = await timed(async () => {
      const prompt = await lib.assemblePrompt({ request: "x", selection, catalog });
      await prompt.session.close();
    });
    const sdk3 = await timed(() =>
      Promise.all(
        urls.slice(0, 3).map(async (url) => {
          const client = new Client({ name: "bench", version: "0" });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          await client.close();
        }),
      )
    );
    console.log(`SDK Client connecting 3 servers in parallel      ${show(sdk3)}`);
    console.log(
      `assemblePrompt, ${ids.length} tools on 3 servers               ${show(assemble)}  ${
        (assemble.median / sdk3.median).toFixed(2)
      }× SDK (target ≤ 1.1)`,
    );
    catalog.dispose();

    // SKILL.md reads against a skills-extension server (serveSkills: the built-in skills).
    const team = lib.createMcpSkillSource({ name: "team", url: skills.url });
    const resolver = lib.createResolver({ sources: [[team]], timeoutMs: 30_000 });
    const start = reads();
    const served = await lib.createCatalog({
      resolver,
      approvals: approvals(),
      follow: false,
    });
    const catalogReads = reads() - start;
    const request = "sort and index my BAM file";
    const chosen = await lib.selectForRequest(served, request);
    const prompt = await lib.assemblePrompt({ request, selection: chosen, catalog: served });
    await prompt.session.close();
    console.log(
      `skills server (${served.entries.length} skills): createCatalog read ${catalogReads} ` +
        `SKILL.md (target 0); select + assemble read ${
          reads() - start - catalogReads
        } for ${chosen.skills.length} selected`,
    );
    served.dispose();
    await team.dispose();
  } finally {
    await Promise.all([remote, skills].map((s) => s.close()));
  }
}

if (isMain(import.meta)) {
  await benchCatalogServers(process.argv[2]);
  process.exit(0);
}
