// Stdio servers as hosts run them, side by side with the official SDK client in one run: the time
// `close()` takes, the time to connect a server that is slow to start, and how many processes
// each started for that. Close follows the spec on both sides (close stdin, wait, SIGTERM, wait,
// SIGKILL); what matters is that each step ends as soon as the server has exited.
//
//   node --import tsx bench/stdio_close.ts
//
// Servers: real ones from npm (server-everything, server-filesystem, server-memory), the SDK's
// McpServer behind a wrapper (exits on stdin close), the same staying after stdin closes (exits
// on SIGTERM), one that exits 0.1 s after stdin closes but takes 3 s on SIGTERM (as
// git-mcp-server does), and the wrapper sleeping 1.5 s before its server starts.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connect } from "../lib/mcp/client/client.ts";
import { stdio } from "../lib/mcp/transport/stdio.ts";
import { fixture } from "../test/mcp/_stdio_helpers.ts";
import { fmt, quantile } from "./_stats.ts";
import { isMain } from "./_main.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RUNS = 5;
const pkg = (name: string) =>
  join(ROOT, "node_modules/@modelcontextprotocol", name, "dist/index.js");

interface Target {
  label: string;
  command: string;
  args: string[];
}

/** One connect, a tools/list, then close: the milliseconds of connect and of close. */
async function ours(t: Target): Promise<{ connect: number; close: number }> {
  const t0 = performance.now();
  const client = await connect(
    { name: "bench", command: t.command, args: t.args, cwd: ROOT },
    { stdio: stdio(), timeoutMs: 30_000 },
  );
  await client.listTools();
  const t1 = performance.now();
  await client.close();
  return { connect: t1 - t0, close: performance.now() - t1 };
}

async function sdk(t: Target): Promise<{ connect: number; close: number }> {
  const t0 = performance.now();
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: t.command, args: t.args, cwd: ROOT, stderr: "ignore" }),
    { timeout: 30_000 },
  );
  await client.listTools();
  const t1 = performance.now();
  await client.close();
  return { connect: t1 - t0, close: performance.now() - t1 };
}

const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);

export async function benchStdioClose(): Promise<void> {
  console.log(`\n## Stdio close and slow starts vs the official SDK client (median of ${RUNS})`);
  const dir = await mkdtemp(join(tmpdir(), "skillmux-bench-stdio-"));
  const log = join(dir, "starts.log");
  const sdkFixture = (...args: string[]) => ({ ...fixture("sdk_server.ts", ...args) });
  const targets: Target[] = [
    {
      label: "server-everything",
      command: process.execPath,
      args: [pkg("server-everything"), "stdio"],
    },
    {
      label: "server-filesystem",
      command: process.execPath,
      args: [pkg("server-filesystem"), dir],
    },
    { label: "server-memory", command: process.execPath, args: [pkg("server-memory")] },
    { label: "SDK server, exits on stdin close", ...sdkFixture() },
    { label: "SDK server, stays until SIGTERM", ...sdkFixture("--stay") },
    // Like git-mcp-server: exits soon after stdin closes, but takes seconds on SIGTERM.
    {
      label: "SDK server, 3 s on SIGTERM",
      ...sdkFixture("--exit-delay", "100", "--sigterm", "slow:3000"),
    },
    { label: "SDK server, 1.5 s start", ...sdkFixture("--delay", "1500", "--log", log) },
  ];
  try {
    for (const target of targets) {
      const mine = { connect: [] as number[], close: [] as number[] };
      const theirs = { connect: [] as number[], close: [] as number[] };
      const before = (await readFile(log, "utf8").catch(() => "")).split("start ").length;
      for (let i = 0; i < RUNS; i++) {
        const a = await ours(target);
        mine.connect.push(a.connect);
        mine.close.push(a.close);
        const b = await sdk(target);
        theirs.connect.push(b.connect);
        theirs.close.push(b.close);
      }
      const starts = (await readFile(log, "utf8").catch(() => "")).split("start ").length - before;
      const close = [median(mine.close), median(theirs.close)];
      const conn = [median(mine.connect), median(theirs.connect)];
      console.log(
        `${target.label.padEnd(34)} close ${fmt(close[0]).padStart(10)} vs SDK ${
          fmt(close[1]).padStart(10)
        } (${(close[0] / close[1]).toFixed(2)}×)   connect+list ${fmt(conn[0]).padStart(10)} vs ${
          fmt(conn[1]).padStart(10)
        } (${(conn[0] / conn[1]).toFixed(2)}×)${
          starts > 0 ? `   starts: ${starts} for ${RUNS * 2} connects` : ""
        }`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta)) {
  await benchStdioClose();
  process.exit(0);
}
