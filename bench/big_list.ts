// Peak memory while a 20 MB chunked tools/list is answered, and while a gzip bomb (a few hundred
// KiB that inflate to 64 MiB) is: skillmux refuses both at its 4 MiB cap while streaming; the SDK
// Client takes them in. Each client runs in its own process.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import http from "node:http";
import { gzipSync } from "node:zlib";
import { listenLocal } from "../test/mcp/_servers.ts";

const TOOLS = 20_000;
const BOMB_BYTES = 64 * 1024 * 1024;
const tool = (i: number) =>
  JSON.stringify({
    name: `tool-${i}`,
    description: "x".repeat(900),
    inputSchema: { type: "object", properties: {} },
  });

export async function benchBigList(): Promise<void> {
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = body ? JSON.parse(body) : {};
    if (rpc.id === undefined) return void res.writeHead(202).end();
    if (rpc.method === "tools/list" && req.url?.includes("bomb")) {
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"tools":[`;
      const body = Buffer.concat([
        Buffer.from(head),
        Buffer.alloc(BOMB_BYTES, 0x20),
        Buffer.from("]}}"),
      ]);
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      return void res.end(gzipSync(body, { level: 9 }));
    }
    res.writeHead(200, { "content-type": "application/json" });
    if (rpc.method === "initialize") {
      const result = {
        protocolVersion: rpc.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "big", version: "1" },
      };
      return void res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result }));
    }
    res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"tools":[`);
    for (let i = 0; i < TOOLS; i++) {
      const ok = res.write(`${i ? "," : ""}${tool(i)}`);
      if (!ok) await new Promise((r) => res.once("drain", r));
      if (res.destroyed) return;
    }
    res.end("]}}");
  });
  const listening = await listenLocal(server);
  const url = `http://127.0.0.1:${listening.port}/mcp`;
  try {
    console.log(
      `\n## A ${(TOOLS * 1 / 1000).toFixed(0)}k-tool, ~${
        (TOOLS * tool(0).length / 2 ** 20).toFixed(0)
      } MiB tools/list (Node child processes)`,
    );
    for (const [what, target] of [["20 MB chunked", url], ["gzip bomb", `${url}?bomb`]]) {
      for (const which of ["skillmux", "sdk"]) {
        // Async: the server lives in this process and must keep answering.
        const { stdout: out } = await promisify(execFile)(
          process.execPath,
          ["--import", "tsx", "bench/_big_list_child.ts", which, target],
          { encoding: "utf8" },
        );
        const row = JSON.parse(out.trim().split("\n").at(-1)!);
        console.log(
          `${what.padEnd(14)} ${which.padEnd(9)} ${row.outcome.padEnd(34)} peak RSS growth ${
            row.peakGrowthMiB.toFixed(1)
          } MiB (cap 4 MiB) in ${row.ms.toFixed(0)} ms`,
        );
      }
    }
  } finally {
    await listening.close();
  }
}
