// Child process of bench/_remote.ts: its servers (inProcess there), answering the parent on
// stdin/stdout in JSON lines. argv: one JSON RemoteOptions. Prints { urls } once listening; then
// answers "requests" (the count so far), "trace on", "trace off" and "trace" (each server's
// proxied requests, times as Unix milliseconds).

import process from "node:process";
import { createInterface } from "node:readline";
import { inProcess, type RemoteOptions } from "./_remote.ts";

const remote = await inProcess(JSON.parse(process.argv[2]) as RemoteOptions);
const send = (value: unknown) => process.stdout.write(JSON.stringify(value) + "\n");
send({ urls: remote.urls });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "requests") send(await remote.requests());
  else if (line === "trace on" || line === "trace off") {
    await remote.tracing(line === "trace on");
    send(true);
  } else if (line === "trace") send(await remote.trace());
}
// stdin closed: the parent is done (or gone).
await remote.close();
process.exit(0);
