// Throughput of serveSkills for resources/read: 8 concurrent clients on loopback for ~3 s,
// next to @modelcontextprotocol/server-everything (Streamable HTTP) reading one of its resources,
// measured in the same run with the same client (ours).

import { connect } from "../lib/mcp/client/client.ts";
import type { McpClient } from "../lib/mcp/client/client_types.ts";
import { serveSkills } from "../lib/server/mod.ts";
import { startEverything } from "../test/mcp/_servers.ts";
import { fmt, quantile, runtime } from "./_stats.ts";
import { isMain } from "./_main.ts";

const CLIENTS = 8;
const DURATION_MS = 3_000;

/** Requests per second and p99 latency of one server. */
export interface ServeFigures {
  rps: number;
  p99: number;
}

async function load(url: string, uri: string): Promise<ServeFigures> {
  const clients: McpClient[] = await Promise.all(
    Array.from(
      { length: CLIENTS },
      (_, i) => connect({ name: `c${i}`, url }, { http: { retries: 0 } }),
    ),
  );
  try {
    for (const client of clients) await client.readResource(uri); // warm up
    const times: number[] = [];
    const start = performance.now();
    const end = start + DURATION_MS;
    await Promise.all(clients.map(async (client) => {
      while (performance.now() < end) {
        const t = performance.now();
        await client.readResource(uri);
        times.push(performance.now() - t);
      }
    }));
    const elapsed = performance.now() - start;
    times.sort((a, b) => a - b);
    return { rps: (times.length / elapsed) * 1000, p99: quantile(times, 0.99) };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

/**
 * Measure serveSkills and server-everything side by side and print requests/s, p99 and the ratio.
 *
 * @example
 * ```ts
 * import { benchServe } from "./serve.ts";
 * const { skillmux, everything } = await benchServe();
 * console.log(skillmux.rps / everything.rps);
 * ```
 */
export async function benchServe(): Promise<{ skillmux: ServeFigures; everything: ServeFigures }> {
  console.log(
    `\nserveSkills resources/read, ${CLIENTS} clients, ${DURATION_MS / 1000} s (${runtime()})`,
  );
  const server = await serveSkills({ sessions: process.env.BENCH_SESSIONS === "1" });
  let skillmux: ServeFigures;
  try {
    skillmux = await load(server.url, "skill://samtools");
  } finally {
    await server.close();
  }
  const everything = await startEverything("streamableHttp");
  let theirs: ServeFigures;
  try {
    const probe = await connect({ name: "probe", url: everything.url });
    const [first] = await probe.listResources();
    await probe.close();
    theirs = await load(everything.url, first.uri);
  } finally {
    await everything.close();
  }
  const row = (name: string, f: ServeFigures) =>
    console.log(`  ${name.padEnd(28)} ${f.rps.toFixed(0).padStart(7)} req/s   p99 ${fmt(f.p99)}`);
  row("skillmux serveSkills", skillmux);
  row("server-everything", theirs);
  console.log(`  ratio (skillmux / everything): ${(skillmux.rps / theirs.rps).toFixed(2)}x req/s`);
  return { skillmux, everything: theirs };
}

if (isMain(import.meta)) await benchServe();
