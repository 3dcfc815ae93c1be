// Child process of bench/big_list.ts: ask one server for tools/list with one client and
// print the peak RSS growth while it runs. argv: <skillmux|sdk> <url>

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import process from "node:process";
import { connect } from "../lib/mcp/client/client.ts";

const [which, url] = process.argv.slice(2);
// Warm up fetch (Node loads it lazily, several MiB) so only the answer's cost is measured.
await fetch(url, { method: "POST", body: "{}" }).then((r) => r.arrayBuffer()).catch(() => {});
(globalThis as { gc?: () => void }).gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
let outcome: string;
const start = performance.now();
try {
  if (which === "skillmux") {
    const client = await connect({ name: "big", url }, {
      timeoutMs: 60_000,
      protocolVersion: "2025-11-25",
    });
    outcome = `${(await client.listTools()).length} tools`;
  } else {
    const client = new Client({ name: "bench", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    outcome = `${(await client.listTools(undefined, { timeout: 60_000 })).tools.length} tools`;
  }
} catch (error) {
  outcome = `refused: ${(error as Error).name}`;
}
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  JSON.stringify({
    which,
    outcome,
    ms: performance.now() - start,
    peakGrowthMiB: (peak - baseline) / 2 ** 20,
  }),
);
process.exit(0);
