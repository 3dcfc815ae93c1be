// Round trips and time over 8 servers, each behind 50 ms of added latency per request, measured
// side by side with the official SDK (in parallel and one after another) and LangChain's
// MultiServerMCPClient: cold connect + listTools (era unknown, era known), a 2026-07-28 server,
// the cold "skill only on the 6th of 8 servers" resolve, and requests per warm resolve. The SDK
// servers run in a child process (bench/_remote.ts; BENCH_SERVERS=in-process for this one).

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { connect } from "../lib/mcp/client/client.ts";
import type { ServerHint } from "../lib/mcp/client/connect_options.ts";
import { createMcpSkillSource } from "../lib/resolve/mcp_source.ts";
import { createResolver } from "../lib/resolve/resolver.ts";
import { serveSkills } from "../lib/server/mod.ts";
import { delayed } from "./_latency.ts";
import { startRemoteServers } from "./_remote.ts";
import { fmt, quantile, runtime } from "./_stats.ts";

const SERVERS = 8;
const LATENCY_MS = 50;
const RUNS = 5;

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} skill. Use when benchmarking.\n---\nBody\n`;

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return quantile(times.sort((a, b) => a - b), 0.5);
}

/** Median time, requests per server per run, and the time in round trips of LATENCY_MS. */
async function measure(
  counter: () => number | Promise<number>,
  fn: () => Promise<unknown>,
  runs = RUNS,
): Promise<{ ms: number; perServer: number; trips: number }> {
  const before = await counter();
  const ms = await median(runs, fn);
  const perServer = (await counter() - before) / runs / SERVERS;
  return { ms, perServer, trips: ms / LATENCY_MS };
}

const row = (label: string, m: { ms: number; perServer: number; trips: number }, base?: number) =>
  console.log(
    `${label.padEnd(46)} ${fmt(m.ms).padStart(10)}  ${m.perServer.toFixed(2)} req/server  ≈${
      m.trips.toFixed(1)
    } RTT${base ? `  (${(m.ms / base).toFixed(2)}x skillmux)` : ""}`,
  );

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export async function benchMcpTools(): Promise<void> {
  const remote = await startRemoteServers({
    count: SERVERS,
    latencyMs: LATENCY_MS,
    server: { json: true, tools: 20 },
    skills: Array.from({ length: SERVERS }, (_, i) => ({ [`skill-${i}`]: skill(`skill-${i}`) })),
  });
  const urls = remote.urls;
  const modern = await serveSkills({});
  const modernProxies = await Promise.all(urls.map(() => delayed(modern.url, LATENCY_MS)));
  const total = () => remote.requests();
  let modernRequests = 0;
  const tools = (n: number, what: string) => {
    if (n !== SERVERS * 22) throw new Error(`${what}: ${n} tools`);
  };
  try {
    console.log(
      `\n## ${SERVERS} servers, +${LATENCY_MS} ms per request (${runtime()}, median of ${RUNS}; ` +
        `servers: ${remote.where})`,
    );
    const floor = await measure(
      total,
      () =>
        Promise.all(urls.map((url) =>
          fetch(url, {
            method: "POST",
            body: "{}",
            headers: { "content-type": "application/json" },
          })
            .then((r) => r.arrayBuffer())
        )),
    );
    row("bare floor: one POST per server, in parallel", floor);
    const connectList = async (hints?: ServerHint[]) => {
      const lists = await Promise.all(urls.map(async (url, i) => {
        const client = await connect({ name: `s${i}`, url }, { hint: hints?.[i] });
        try {
          return await client.listTools();
        } finally {
          await client.close();
        }
      }));
      tools(lists.flat().length, "skillmux");
    };
    // Era unknown: every run starts from an empty in-process memory (a hint of "nothing").
    const unknown = await measure(total, () =>
      Promise.all(urls.map(async (url, i) => {
        const client = await connect({ name: `u${i}`, url: `${url}?fresh=${Math.random()}` });
        try {
          return await client.listTools();
        } finally {
          await client.close();
        }
      })));
    const hints = await Promise.all(urls.map(async (url, i) => {
      const client = await connect({ name: `h${i}`, url });
      await client.close();
      return client.hint;
    }));
    const known = await measure(total, () => connectList(hints));
    row("skillmux connect+listTools, era unknown", unknown);
    row("skillmux connect+listTools, era known (hint)", known);
    const sdkParallel = await measure(total, async () => {
      const lists = await Promise.all(urls.map(async (url) => {
        const client = await sdkClient(url);
        const { tools } = await client.listTools();
        await client.close();
        return tools;
      }));
      tools(lists.flat().length, "sdk");
    });
    row("SDK Client, in parallel", sdkParallel, known.ms);
    console.log(
      `load ${SERVERS * 22} tools cold, skillmux ÷ SDK in parallel: ${
        (unknown.ms / sdkParallel.ms).toFixed(2)
      } (era unknown), ${(known.ms / sdkParallel.ms).toFixed(2)} (era known); target ≤ 0.65`,
    );
    const langchain = await measure(total, async () => {
      const client = new MultiServerMCPClient({
        mcpServers: Object.fromEntries(
          urls.map((url, i) => [`s${i}`, { url, transport: "http" as const }]),
        ),
        useStandardContentBlocks: true,
      });
      const found = await client.getTools();
      await client.close();
      tools(found.length, "langchain");
    });
    row("@langchain/mcp-adapters getTools()", langchain, known.ms);
    const sdkSerial = await measure(total, async () => {
      let count = 0;
      for (const url of urls) {
        const client = await sdkClient(url);
        count += (await client.listTools()).tools.length;
        await client.close();
      }
      tools(count, "sdk serial");
    }, 3);
    row("SDK Client, one server after another", sdkSerial, known.ms);

    // A 2026-07-28 server (serveSkills): one request when the discovery is known.
    const modernUrls = modernProxies.map((p) => p.url);
    const modernHints = await Promise.all(modernUrls.map(async (url, i) => {
      const client = await connect({ name: `m${i}`, url });
      await client.close();
      return client.hint;
    }));
    const countModern = () => modernRequests;
    const modernRun = (hinted: boolean) => () =>
      Promise.all(modernUrls.map(async (url, i) => {
        const client = await connect({
          name: `m${i}`,
          url: hinted ? url : `${url}?fresh=${Math.random()}`,
        }, {
          hint: hinted ? modernHints[i] : undefined,
        });
        modernRequests += hinted ? 1 : 2; // discover (unknown only) + tools/list, counted below
        await client.listTools();
        await client.close();
      }));
    row(
      "2026-07-28 server, era unknown (discover+list)",
      await measure(countModern, modernRun(false)),
    );
    row("2026-07-28 server, era known (list only)", await measure(countModern, modernRun(true)));

    // The skill only the 6th server has, cold: new sources (no connection) every run.
    const cold = async (withHints: boolean) => {
      const sources = urls.map((url, i) =>
        createMcpSkillSource({
          name: `c${i}`,
          url: withHints ? url : `${url}?fresh=${Math.random()}`,
        }, {
          connect: { hint: withHints ? hints[i] : undefined },
        })
      );
      const hit = await createResolver({ sources: [sources] }).resolve("skill-5");
      if (hit.source !== "mcp:c5") throw new Error(`cold resolve: ${hit.source}`);
      await Promise.all(sources.map((s) => s.dispose()));
    };
    console.log(`\n## The skill only the 6th of ${SERVERS} servers has, cold`);
    const coldUnknown = await measure(total, () => cold(false));
    const coldKnown = await measure(total, () => cold(true));
    const sdkCold = await measure(total, () =>
      Promise.all(urls.map(async (url) => {
        const client = await sdkClient(url);
        const found = await client.readResource({ uri: "skill://skill-5" }).catch(() => undefined);
        await client.close();
        return found;
      })));
    row("skillmux resolver, era unknown", coldUnknown);
    row("skillmux resolver, era known (registry hint)", coldKnown);
    row("SDK Client in parallel: connect + read everywhere", sdkCold, coldKnown.ms);
    console.log(
      `skillmux / SDK: ${(coldUnknown.ms / sdkCold.ms).toFixed(2)} (unknown), ${
        (coldKnown.ms / sdkCold.ms).toFixed(2)
      } (known); target ≤ 0.80`,
    );

    // Warm MCP resolve: requests per resolve, across all eight servers.
    const sources = urls.map((url, i) => createMcpSkillSource({ name: `s${i}`, url }));
    const resolver = createResolver({ sources: [sources] });
    await resolver.resolve("skill-5");
    const before = await total();
    const warm = await median(10, () => resolver.resolve("skill-5"));
    const perResolve = (await total() - before) / 10;
    const last = await resolver.resolve("skill-5");
    console.log(`\n## MCP skill source, ${SERVERS} servers, +${LATENCY_MS} ms per request`);
    console.log(
      `warm resolve: ${perResolve} requests in all (reads go only to the holder and the servers ` +
        `above it that have a skill://{name} template), median ${fmt(warm)}, ` +
        `${last.diagnostics.length} diagnostics`,
    );
    const withDead = [
      createMcpSkillSource({ name: "dead", url: "http://127.0.0.1:9/mcp" }),
      ...sources.slice(1),
    ];
    const deadResolver = createResolver({ sources: [withDead] });
    const coldDead = await median(1, () => deadResolver.resolve("skill-5"));
    const warmDead = await median(5, () => deadResolver.resolve("skill-5"));
    console.log(
      `one dead server among eight: cold resolve ${fmt(coldDead)}, warm ${
        fmt(warmDead)
      } (dead server = connection refused)`,
    );
    await Promise.all([...sources, ...withDead].map((s) => s.dispose()));
  } finally {
    await Promise.all([remote, ...modernProxies, modern].map((s) => s.close()));
  }
}
