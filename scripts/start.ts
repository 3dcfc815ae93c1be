/**
 * `npm start`: build the playground (Vite), start the skills server on the built-in skills with
 * CORS for the playground's origin, serve the playground, and print the one URL to open. The page
 * registers the skills server on first load (from `/playground.json`). SIGINT/SIGTERM stop both.
 *
 * Environment: `PORT` (playground, default 5173), `SKILLS_PORT` (skills server, default 3737),
 * `SKIP_BUILD=1` to serve an existing `playground/dist`. A taken port says how to pick another and
 * exits 1.
 *
 * Stopping: SIGINT and SIGTERM close both servers. `npm start` runs this under `sh -c`, which
 * dies of the SIGTERM npm forwards without passing it on; so this process also stops when its
 * parent goes away (checked twice a second), and the ports are free again either way.
 *
 * @module
 */

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { cliInvocation } from "../lib/cli/_invocation.ts";
import { serveSkills } from "../lib/server/mod.ts";

const root = path.resolve("playground/dist");
const port = Number(process.env.PORT ?? 5173);
const skillsPort = Number(process.env.SKILLS_PORT ?? 3737);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

let config = "{}";
const site = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/playground.json") {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    return res.end(config);
  }
  const file = path.join(
    root,
    path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ""),
  );
  const target = file.startsWith(root) && (await stat(file).catch(() => undefined))?.isFile()
    ? file
    : path.join(root, "index.html");
  try {
    const body = await readFile(target);
    res.writeHead(200, {
      "content-type": TYPES[path.extname(target)] ?? "application/octet-stream",
    });
    res.end(body);
  } catch {
    res.writeHead(404).end("Not found: run `npm start` to build the playground");
  }
});
/** Exit 1 with how to pick another port when `port` is taken; rethrow anything else. */
function portTaken(error: unknown, port: number, variable: string): never {
  if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
  console.error(
    `Port ${port} is taken (something else listens there): pick another with ` +
      `${variable}=<port> npm start, or ${variable}=0 for any free port.`,
  );
  process.exit(1);
}

await new Promise<void>((resolve, reject) => {
  site.once("error", reject);
  site.listen(port, "127.0.0.1", resolve);
}).catch((error) => portTaken(error, port, "PORT"));
const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
const skills = await serveSkills({
  port: skillsPort,
  allowedOrigins: [origin, origin.replace("127.0.0.1", "localhost")],
}).catch((error) => portTaken(error, skillsPort, "SKILLS_PORT"));
config = JSON.stringify({ server: skills.url });

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  site.closeAllConnections();
  await Promise.all([new Promise((r) => site.close(r)), skills.close()]);
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 500).unref();

// Built once both ports are ours, so a taken port is said at once, not after the build.
if (process.env.SKIP_BUILD !== "1") {
  const { build } = await import("vite");
  await build({ configFile: path.resolve("playground/vite.config.ts") });
}
console.log(`skillmux playground: ${origin}/`);
console.log(`skills server: ${skills.url}`);
console.log(`  connect another client: ${cliInvocation()} mcp add ${skills.url} --name skillmux`);
