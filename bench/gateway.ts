// The gateway (`serveGateway`, `skillmux serve --gateway`), three figures side by side in one run:
//  1. latency: tools/call of server-everything's echo through the gateway vs direct, same client
//     (ours), calls interleaved; median and p95 of each and the added time;
//  2. memory: RSS of a `skillmux serve --gateway` process with 8 upstream servers connected
//     (a call made to each), next to `skillmux serve` (skills only);
//  3. tokens (o200k) of the tools/list a host receives for 500 tools, with --discover and
//     without, and of one find_tools answer.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "../lib/catalog/build/tokens.ts";
import { connect } from "../lib/mcp/client/client.ts";
import { serveGateway } from "../lib/server/mod.ts";
import { listenLocal, startEverything } from "../test/mcp/_servers.ts";
import { cli, command, ROOT, tempHome } from "../test/cli/_helpers.ts";
import { registered } from "../test/server/_gateway.ts";
import { syntheticTool } from "./_synthetic.ts";
import { fmt, quantile, runtime } from "./_stats.ts";
import { isMain } from "./_main.ts";

const CALLS = 300;

/** An upstream on 127.0.0.1 (stateless, JSON) listing `tools`; every call echoes its name. */
async function upstream(tools: ReturnType<typeof syntheticTool>[]) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const mcp = new McpServer({ name: "synthetic", version: "1" }, { capabilities: { tools: {} } });
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    mcp.server.setRequestHandler(CallToolRequestSchema, (r) => ({
      content: [{ type: "text", text: r.params.name }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => void transport.close().catch(() => {}));
    await mcp.connect(transport);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    await transport.handleRequest(req, res, body);
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}/mcp`, close: listening.close };
}

async function latency() {
  const everything = await startEverything("streamableHttp");
  const reg = await registered([{ name: "everything", url: everything.url }]);
  await reg.approve(() => true);
  const gateway = await serveGateway({ registry: reg.registry, approvals: reg.approvals });
  const direct = await connect({ name: "direct", url: everything.url }, { http: { retries: 0 } });
  const proxied = await connect({ name: "gateway", url: gateway.url }, { http: { retries: 0 } });
  try {
    const d: number[] = [];
    const p: number[] = [];
    const time = async (fn: () => Promise<unknown>, into: number[]) => {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    };
    for (let i = 0; i < 20; i++) { // warm up both paths
      await direct.callTool("echo", { message: "w" });
      await proxied.callTool("everything__echo", { message: "w" });
    }
    for (let i = 0; i < CALLS; i++) {
      await time(() => direct.callTool("echo", { message: `m${i}` }), d);
      await time(() => proxied.callTool("everything__echo", { message: `m${i}` }), p);
    }
    d.sort((a, b) => a - b);
    p.sort((a, b) => a - b);
    const [dm, d95, pm, p95] = [
      quantile(d, 0.5),
      quantile(d, 0.95),
      quantile(p, 0.5),
      quantile(p, 0.95),
    ];
    console.log(`  tools/call echo, ${CALLS} calls each, interleaved`);
    console.log(`    direct to server-everything   median ${fmt(dm)}   p95 ${fmt(d95)}`);
    console.log(`    through the gateway           median ${fmt(pm)}   p95 ${fmt(p95)}`);
    console.log(`    added by the gateway          median ${fmt(pm - dm)}   p95 ${fmt(p95 - d95)}`);
    return { direct: { median: dm, p95: d95 }, gateway: { median: pm, p95 } };
  } finally {
    await Promise.all([direct.close(), proxied.close()]);
    await gateway.close();
    await everything.close();
  }
}

/** RSS (MiB) of a `skillmux serve` process with `argv`, after `use` ran against its URL. */
async function rss(
  argv: string[],
  env: Record<string, string>,
  use: (url: string) => Promise<void>,
): Promise<number> {
  const [file, args] = command(argv);
  const child = spawn(file, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const found = /at (http:\/\/\S+\/mcp)/.exec(out);
        if (found) resolve(found[1]);
      });
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    await use(url);
    await new Promise((r) => setTimeout(r, 500));
    const status = readFileSync(join("/proc", String(child.pid), "status"), "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  } finally {
    child.kill("SIGTERM");
  }
}

async function memory() {
  const ups = await Promise.all(
    Array.from(
      { length: 8 },
      (_, s) => upstream(Array.from({ length: 20 }, (_, i) => syntheticTool(i, `s${s}`))),
    ),
  );
  const home = await tempHome();
  const env = { ...home.env, PATH: process.env.PATH ?? "" };
  try {
    for (const [i, up] of ups.entries()) {
      const added = await cli(["mcp", "add", up.url, "--name", `s${i}`], env);
      if (added.code !== 0) throw new Error(added.stderr);
    }
    await cli(["approve", "--all"], env);
    const skills = await rss(["serve", "--port", "0"], env, async (url) => {
      const c = await connect({ name: "m", url });
      await c.listTools();
      await c.close();
    });
    const gateway = await rss(["serve", "--gateway", "--port", "0"], env, async (url) => {
      const c = await connect({ name: "m", url });
      const tools = await c.listTools();
      for (let s = 0; s < 8; s++) {
        const tool = tools.find((t) => t.name.startsWith(`s${s}__`))!;
        await c.callTool(tool.name, {});
      }
      await c.close();
    });
    console.log(
      `  RSS, skillmux serve (skills only)                    ${
        gateway > 0 ? skills.toFixed(1) : "?"
      } MiB`,
    );
    console.log(`  RSS, skillmux serve --gateway, 8 servers connected   ${gateway.toFixed(1)} MiB`);
    return { skills, gateway };
  } finally {
    await home.close();
    await Promise.all(ups.map((u) => u.close()));
  }
}

async function tokens() {
  const ups = await Promise.all(
    Array.from(
      { length: 5 },
      (_, s) => upstream(Array.from({ length: 100 }, (_, i) => syntheticTool(i, `workspace${s}`))),
    ),
  );
  const reg = await registered(ups.map((u, i) => ({ name: `w${i}`, url: u.url })));
  await reg.approve(() => true);
  const count = async (discover: boolean) => {
    const gateway = await serveGateway({
      registry: reg.registry,
      approvals: reg.approvals,
      discover,
    });
    const client = await connect({ name: "t", url: gateway.url });
    try {
      const tools = await client.listTools();
      const listed = await countTokens(JSON.stringify(tools));
      const found = discover
        ? await countTokens(
          JSON.stringify(await client.callTool("find_tools", { query: "update an invoice" })),
        )
        : 0;
      return { n: tools.length, listed, found };
    } finally {
      await client.close();
      await gateway.close();
    }
  };
  try {
    const all = await count(false);
    const disc = await count(true);
    console.log(
      `  tools/list, 500 upstream tools (+2 skill tools): ${all.n} tools, ${all.listed} tokens`,
    );
    console.log(
      `  tools/list with --discover: ${disc.n} tools, ${disc.listed} tokens (${
        (all.listed / disc.listed).toFixed(0)
      }x fewer)`,
    );
    console.log(`  one find_tools answer (5 tools with schemas): ${disc.found} tokens`);
    return { all: all.listed, discover: disc.listed, findTools: disc.found };
  } finally {
    await Promise.all(ups.map((u) => u.close()));
  }
}

/**
 * Measure the gateway's added latency, memory and tools/list tokens (see the top of this file).
 *
 * @example
 * ```ts
 * import { benchGateway } from "./gateway.ts";
 * const { latency } = await benchGateway();
 * console.log(latency.gateway.median - latency.direct.median);
 * ```
 */
export async function benchGateway() {
  console.log(`\nserveGateway (${runtime()})`);
  return { latency: await latency(), memory: await memory(), tokens: await tokens() };
}

if (isMain(import.meta)) await benchGateway();
