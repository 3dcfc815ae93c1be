/**
 * `npm start`: build the playground (Vite) unless its sources are unchanged since the last build,
 * start the skills server on the example team folder with CORS for the playground's origin, the
 * loopback relay (scripts/_relay.ts) through which the page reaches servers without CORS, serve
 * the playground (gzip when accepted), and print the one URL to open. The page registers the
 * skills server on first load and reads the relay's URL and per-run token from `/playground.json`.
 *
 * Environment: `PORT` (playground, default 5173), `SKILLS_PORT` (skills server, default 3737),
 * `RELAY_PORT` (default 0: any free port), `SKILLS_FOLDER` (the folder the skills server serves,
 * default `examples/team-skills`; `skills` serves every built-in), `SKIP_BUILD=1` to serve an
 * existing `playground/dist`, `RELAY_STDIO=1` to let the relay start the stdio servers the person
 * adds in the page (off by default: a page script holding the token could then run commands),
 * `RELAY_IDLE_SECONDS` (default 600) how long such a server's session may sit idle before its
 * process ends (a page that crashed or closed without ending it), `RELAY_STARTUP_SECONDS`
 * (default 60) how long such a server may take to start.
 * A taken port moves to the next one (10 tries, as Vite does); when all are taken it says how to
 * pick another and exits 1.
 *
 * Stopping: SIGINT and SIGTERM close both servers. `npm start` runs this under `sh -c`, which
 * dies of the SIGTERM npm forwards without passing it on; so this process also stops when its
 * parent goes away (checked twice a second), and the ports are free again either way.
 *
 * @module
 */

import { createServer } from "node:http";
import * as path from "node:path";
import process from "node:process";
import { cliInvocation } from "../lib/cli/_invocation.ts";
import { serveSkills } from "../lib/server/mod.ts";
import { startRelay } from "./_relay.ts";
import { builtFrom, listenFrom, sourceDigest, stamp, staticFiles } from "./_site.ts";

const root = path.resolve("playground/dist");
const port = Number(process.env.PORT ?? 5173);
const skillsPort = Number(process.env.SKILLS_PORT ?? 3737);
const relayPort = Number(process.env.RELAY_PORT ?? 0);
const relayStdio = process.env.RELAY_STDIO === "1";
// A stdio session idle this long (its page crashed or closed without DELETE) ends its process.
const relayIdleSeconds = Number(process.env.RELAY_IDLE_SECONDS || 600);
// How long a stdio server the page added may take to start (`npx -y` fetching it the first time).
const relayStartupSeconds = Number(process.env.RELAY_STARTUP_SECONDS || 60);
// The skills server's folder: the example team folder, so that the page shows the priority chain
// (user > mcp:skills > builtin) with most skills built in and one team convention shadowing one.
const folder = path.resolve(process.env.SKILLS_FOLDER || "examples/team-skills");

let config = "{}";
let hosts: string[] = [];
const serveFile = staticFiles(root);
const site = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/playground.json") {
    // It holds the relay's token: only for a request to this site by its own name (a
    // DNS-rebinding page names another host), and never with CORS headers.
    if (!hosts.includes(req.headers.host ?? "")) {
      res.writeHead(421, { "content-type": "text/plain" });
      return res.end(`Host must be one of ${hosts.join(", ")}`);
    }
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    return res.end(config);
  }
  await serveFile(req, res);
});

/** Exit 1 with how to pick another port when no port from `port` on is free; rethrow the rest. */
function portTaken(error: unknown, port: number, variable: string): never {
  if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
  console.error(
    `Ports ${port} to ${port + 9} are taken (something else listens there): pick another with ` +
      `${variable}=<port> npm start, or ${variable}=0 for any free port.`,
  );
  process.exit(1);
}

await listenFrom(port, "playground", (port) =>
  new Promise<void>((resolve, reject) => {
    site.once("error", reject);
    site.listen(port, "127.0.0.1", () => {
      site.off("error", reject);
      resolve();
    });
  })).catch((error) => portTaken(error, port, "PORT"));
const sitePort = (site.address() as { port: number }).port;
const origin = `http://127.0.0.1:${sitePort}`;
hosts = [`127.0.0.1:${sitePort}`, `localhost:${sitePort}`];
const origins = [origin, `http://localhost:${sitePort}`];
const skills = await listenFrom(
  skillsPort,
  "skills server",
  (port) => serveSkills({ port, allowedOrigins: origins, folder }),
).catch((error) => portTaken(error, skillsPort, "SKILLS_PORT"));
const relay = await listenFrom(
  relayPort,
  "relay",
  (port) =>
    startRelay({
      port,
      origins,
      stdio: relayStdio,
      stdioIdleMs: relayIdleSeconds * 1_000,
      stdioStartupMs: relayStartupSeconds * 1_000,
      log: (line) => console.log(line),
    }),
)
  .catch((error) => portTaken(error, relayPort, "RELAY_PORT"));
config = JSON.stringify({
  server: skills.url,
  relay: {
    url: relay.url,
    token: relay.token,
    stdio: relay.stdio,
    startupMs: relayStartupSeconds * 1_000,
  },
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  site.closeAllConnections();
  await Promise.all([new Promise((r) => site.close(r)), skills.close(), relay.close()]);
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 500).unref();

// Built once the ports are ours, so a taken port is said at once, not after the build; skipped
// when playground/, lib/ and the lock file are what the last build was made from.
if (process.env.SKIP_BUILD !== "1") {
  const digest = await sourceDigest(process.cwd());
  if (await builtFrom(root, digest)) {
    console.log("playground unchanged since the last build: serving playground/dist as it is");
  } else {
    const { build } = await import("vite");
    await build({ configFile: path.resolve("playground/vite.config.ts") });
    await stamp(root, digest);
  }
}
console.log(`skillmux playground: ${origin}/`);
console.log(`skills server: ${skills.url}`);
console.log(`relay for servers without CORS: ${relay.url} (token in /playground.json)`);
console.log(
  relay.stdio
    ? "  it also starts the stdio servers you add in the page (RELAY_STDIO=1)"
    : "  stdio servers: restart with RELAY_STDIO=1 to add them in the page",
);
console.log(`  connect another client: ${cliInvocation()} mcp add ${skills.url} --name skillmux`);
