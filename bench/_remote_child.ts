// Child process of bench/_remote.ts: SDK servers, each behind a proxy that adds a fixed delay per
// request, answering the parent on stdin/stdout in JSON lines. argv: one JSON object of options
// ({ count, latencyMs, server: SdkServerOptions, skills?: one skills map per server }).
// Prints { urls, direct } once listening; then answers "requests" (the count so far), "trace on",
// "trace off" and "trace" (each server's proxied requests, times as Unix milliseconds).

import process from "node:process";
import { createInterface } from "node:readline";
import { type SdkServerOptions, startSdkServer } from "../test/mcp/_servers.ts";
import { delayed, type ProxiedRequest } from "./_latency.ts";

const options = JSON.parse(process.argv[2]) as {
  count: number;
  latencyMs: number;
  server: SdkServerOptions;
  skills?: Record<string, string>[];
};
const servers = await Promise.all(
  Array.from(
    { length: options.count },
    (_, i) => startSdkServer({ ...options.server, skills: options.skills?.[i] }),
  ),
);
let tracing = false;
const trace: ProxiedRequest[][] = servers.map(() => []);
const unix = (t: number) => performance.timeOrigin + t;
const proxies = await Promise.all(servers.map((s, i) =>
  delayed(s.url, options.latencyMs, (r) => {
    if (tracing) trace[i].push({ ...r, arrived: unix(r.arrived), answered: unix(r.answered) });
  })
));
const send = (value: unknown) => process.stdout.write(JSON.stringify(value) + "\n");
send({ urls: proxies.map((p) => p.url), direct: servers.map((s) => s.url) });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "requests") send(servers.reduce((n, s) => n + s.requests.length, 0));
  else if (line === "trace on") tracing = true, send(true);
  else if (line === "trace off") tracing = false, send(true);
  else if (line === "trace") send(trace);
}
// stdin closed: the parent is done (or gone).
await Promise.all([...proxies, ...servers].map((s) => s.close()));
process.exit(0);
