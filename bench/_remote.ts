// Private: the benchmarks' MCP servers, each behind a loopback proxy that adds a fixed delay per
// request (a remote server's round trip). By default they run in a child process, as a remote
// server's work is not the client's: a client that sends more requests then pays for its own
// side of them, not for the server's too. `BENCH_SERVERS=in-process` runs them in the bench's
// own process (as every bench did before; the server work then shares the client's CPU).

import { spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type SdkServerOptions, startSdkServer } from "../test/mcp/_servers.ts";
import { delayed, type ProxiedRequest } from "./_latency.ts";

/** SDK servers behind delaying proxies, wherever they run. */
export interface RemoteServers {
  /** Where the servers run: "child process" or "in-process". */
  where: string;
  /** The proxies' URLs (with the delay), one per server. */
  urls: string[];
  /** HTTP requests the servers have received so far. */
  requests(): Promise<number>;
  /** Start or stop recording each server's proxied requests. */
  tracing(on: boolean): Promise<void>;
  /** The recorded requests per server, times as Unix milliseconds. */
  trace(): Promise<ProxiedRequest[][]>;
  close(): Promise<void>;
}

export interface RemoteOptions {
  count: number;
  latencyMs: number;
  server: SdkServerOptions;
  /** One `skills` map per server. */
  skills?: Record<string, string>[];
}

/** Start `options.count` SDK servers behind proxies adding `options.latencyMs` per request. */
export function startRemoteServers(options: RemoteOptions): Promise<RemoteServers> {
  return process.env.BENCH_SERVERS === "in-process" ? inProcess(options) : inChild(options);
}

/** The servers in this process (also what bench/_remote_child.ts runs). */
export async function inProcess(options: RemoteOptions): Promise<RemoteServers> {
  const servers = await Promise.all(
    Array.from(
      { length: options.count },
      (_, i) => startSdkServer({ ...options.server, skills: options.skills?.[i] }),
    ),
  );
  let on = false;
  const rows: ProxiedRequest[][] = servers.map(() => []);
  const unix = (t: number) => performance.timeOrigin + t;
  const proxies = await Promise.all(servers.map((s, i) =>
    delayed(s.url, options.latencyMs, (r) => {
      if (on) rows[i].push({ ...r, arrived: unix(r.arrived), answered: unix(r.answered) });
    })
  ));
  return {
    where: "in-process",
    urls: proxies.map((p) => p.url),
    requests: () => Promise.resolve(servers.reduce((n, s) => n + s.requests.length, 0)),
    tracing: (value) => Promise.resolve(void (on = value)),
    trace: () => Promise.resolve(rows),
    close: async () => void await Promise.all([...proxies, ...servers].map((s) => s.close())),
  };
}

async function inChild(options: RemoteOptions): Promise<RemoteServers> {
  const child = spawn(
    "node",
    [
      "--import",
      "tsx",
      fileURLToPath(new URL("./_remote_child.ts", import.meta.url)),
      JSON.stringify(options),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error("the bench's server process ended");
    return JSON.parse(value);
  };
  // One question at a time: each answer is the next line.
  let queue = Promise.resolve<unknown>(undefined);
  const ask = <T>(question: string) => {
    const answer = queue.then(() => {
      child.stdin!.write(question + "\n");
      return next();
    });
    queue = answer.catch(() => undefined);
    return answer as Promise<T>;
  };
  const { urls } = await next() as { urls: string[] };
  return {
    where: "child process",
    urls,
    requests: () => ask<number>("requests"),
    tracing: async (on) => void await ask(on ? "trace on" : "trace off"),
    trace: () => ask<ProxiedRequest[][]>("trace"),
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin!.end();
      await exited;
    },
  };
}
