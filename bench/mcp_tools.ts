// Tools from 8 servers, each behind 50 ms of added latency per request: skillmux (parallel)
// vs @langchain/mcp-adapters MultiServerMCPClient vs the SDK Client one server after another.
// Then: requests per warm MCP resolve, and resolve time with one dead server among eight.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { connect } from "../lib/mcp/client.ts";
import { createMcpSkillSource } from "../lib/resolve/mcp_source.ts";
import { createResolver } from "../lib/resolve/resolver.ts";
import { startSdkServer } from "../test/mcp/_servers.ts";
import { delayed } from "./_latency.ts";
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

export async function benchMcpTools(): Promise<void> {
  const servers = await Promise.all(
    Array.from(
      { length: SERVERS },
      (_, i) =>
        startSdkServer({ json: true, tools: 20, skills: { [`skill-${i}`]: skill(`skill-${i}`) } }),
    ),
  );
  const proxies = await Promise.all(servers.map((s) => delayed(s.url, LATENCY_MS)));
  const urls = proxies.map((p) => p.url);
  try {
    const ours = await median(RUNS, async () => {
      const lists = await Promise.all(urls.map(async (url, i) => {
        const client = await connect({ name: `s${i}`, url });
        try {
          return await client.listTools();
        } finally {
          await client.close();
        }
      }));
      if (lists.flat().length !== SERVERS * 22) throw new Error("skillmux: wrong tool count");
    });
    const langchain = await median(RUNS, async () => {
      const client = new MultiServerMCPClient({
        mcpServers: Object.fromEntries(
          urls.map((url, i) => [`s${i}`, { url, transport: "http" as const }]),
        ),
        useStandardContentBlocks: true,
      });
      const tools = await client.getTools();
      await client.close();
      if (tools.length !== SERVERS * 22) throw new Error(`langchain: ${tools.length} tools`);
    });
    const sdk = await median(RUNS, async () => {
      let count = 0;
      for (const url of urls) {
        const client = new Client({ name: "bench", version: "0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        count += (await client.listTools()).tools.length;
        await client.close();
      }
      if (count !== SERVERS * 22) throw new Error("sdk: wrong tool count");
    });
    console.log(
      `\n## Tools from ${SERVERS} servers, +${LATENCY_MS} ms per request (${runtime()}, median of ${RUNS})`,
    );
    console.log(`skillmux connect+listTools, in parallel      ${fmt(ours)}`);
    console.log(
      `@langchain/mcp-adapters getTools()           ${fmt(langchain)}  (${
        (langchain / ours).toFixed(1)
      }x skillmux)`,
    );
    console.log(
      `SDK Client, one server after another         ${fmt(sdk)}  (${
        (sdk / ours).toFixed(1)
      }x skillmux)`,
    );

    // Warm MCP resolve: requests per resolve, across all eight servers.
    const sources = urls.map((url, i) => createMcpSkillSource({ name: `s${i}`, url }));
    const resolver = createResolver({ sources: [sources] });
    await resolver.resolve("skill-5");
    const total = () => servers.reduce((n, s) => n + s.requests.length, 0);
    const before = total();
    const warm = await median(10, () => resolver.resolve("skill-5"));
    const perResolve = (total() - before) / 10;
    console.log(`\n## MCP skill source, ${SERVERS} servers, +${LATENCY_MS} ms per request`);
    console.log(
      `warm resolve: ${perResolve} requests in all (${
        (perResolve / SERVERS).toFixed(3)
      } per server), median ${fmt(warm)}`,
    );

    const withDead = [
      createMcpSkillSource({ name: "dead", url: "http://127.0.0.1:9/mcp" }),
      ...sources.slice(1),
    ];
    const deadResolver = createResolver({ sources: [withDead] });
    const cold = await median(1, () => deadResolver.resolve("skill-5"));
    const warmDead = await median(5, () => deadResolver.resolve("skill-5"));
    console.log(
      `one dead server among eight: cold resolve ${fmt(cold)}, warm ${
        fmt(warmDead)
      } (dead server = connection refused)`,
    );
    await Promise.all([...sources, ...withDead].map((s) => s.dispose()));
  } finally {
    await Promise.all([...proxies, ...servers].map((s) => s.close()));
  }
}
