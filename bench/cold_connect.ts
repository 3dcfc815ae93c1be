// Cold connect in a fresh Node process: `import "."` (the npm build, dist/mod.js), then
// `connect()` + `listTools()` against local servers of each era (median of RUNS fresh processes).
// What lazy loading moves out of the import shows up in the connect column: their sum is what a
// short-lived Node process (a CLI call) pays. Needs `npm run build`. Given another build's
// entry, runs alternate between the two, side by side (e.g. a build of the previous release).
//
//   node --import tsx bench/cold_connect.ts [other/dist/mod.js]

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { serveSkills } from "../lib/server/mod.ts";
import { startEverything, startSdkServer, type TestServer } from "../test/mcp/_servers.ts";
import { fmt, quantile } from "./_stats.ts";
import { isMain } from "./_main.ts";

const RUNS = 11;
const ENTRY = fileURLToPath(new URL("../dist/mod.js", import.meta.url));
const run = promisify(execFile);

/** One fresh process: milliseconds to import ".", then to connect and list the tools. */
async function once(entry: string, url: string): Promise<{ imp: number; conn: number }> {
  const code = `const t0 = performance.now();
const m = await import(${JSON.stringify(entry)});
const t1 = performance.now();
const c = await m.connect({ name: "s", url: ${JSON.stringify(url)} }, { timeoutMs: 10000 });
await c.listTools();
const t2 = performance.now();
await c.close();
console.log(JSON.stringify({ imp: t1 - t0, conn: t2 - t1 }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], {
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

export async function benchColdConnect(other?: string): Promise<void> {
  console.log(`\n## Cold connect in Node ${process.version} (median of ${RUNS} fresh processes)`);
  if (!existsSync(ENTRY)) {
    console.log("skipped: run `npm run build` first (dist/mod.js is the npm entry)");
    return;
  }
  const servers: [string, TestServer][] = [
    ["2025 Streamable HTTP (SDK, JSON)", await startSdkServer({ json: true, tools: 5 })],
    ["2026-07-28 (serveSkills)", await serveSkills({})],
    ["legacy HTTP+SSE (server-everything)", await startEverything("sse")],
  ];
  try {
    const entries: [string, string][] = [["", ENTRY]];
    if (other !== undefined) entries.push([" (other)", other]);
    const median = (xs: number[]) => quantile(xs.sort((x, y) => x - y), 0.5);
    for (const [label, server] of servers) {
      const times = entries.map(() => ({ imp: [] as number[], conn: [] as number[] }));
      for (let i = 0; i < RUNS; i++) {
        for (const [j, [, entry]] of entries.entries()) {
          const t = await once(entry, server.url);
          times[j].imp.push(t.imp);
          times[j].conn.push(t.conn);
        }
      }
      for (const [j, [which]] of entries.entries()) {
        console.log(
          `${(label + which).padEnd(46)} import ${fmt(median(times[j].imp)).padStart(9)}  ` +
            `connect+listTools ${fmt(median(times[j].conn)).padStart(9)}`,
        );
      }
    }
  } finally {
    for (const [, server] of servers) await server.close();
  }
}

if (isMain(import.meta)) {
  await benchColdConnect(process.argv[2]);
  process.exit(0);
}
