// `npm start` as a new user runs it (scripts/start.ts, SKIP_BUILD=1 so no playground build): it
// prints the URLs and a hint that runs from this clone, stops on SIGTERM (sent to npm, which
// forwards it to `sh -c`, or to the script itself) leaving both ports free, a taken port moves
// to the next (ten taken ones say how to pick another and exit 1), and /playground.json hands the
// relay's token only to a request naming the site's own Host.
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { type IncomingHttpHeaders, request } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect } from "../lib/mcp/client/client.ts";
import { ONCE_UNDER_DENO } from "./_once.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ENV = { ...process.env, SKIP_BUILD: "1", PORT: "0", SKILLS_PORT: "0", NO_COLOR: "1" };
const POSIX = process.platform !== "win32";

interface Started {
  child: ChildProcess;
  site: string;
  skills: string;
  hint: string;
  relay: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawn `command`, wait for its three banner lines (20 s at most). */
function start(command: string, args: string[], env = ENV): Promise<Started> {
  // Its own process group, so that cleanup can reach a server that outlived npm (see stop()).
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s:\n${out}\n${err}`)), 20_000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const site = /skillmux playground: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
      const skills = /skills server: (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(out)?.[1];
      const hint = /connect another client: (.+)\n/.exec(out)?.[1];
      const relay = /relay for servers without CORS: (http:\/\/127\.0\.0\.1:\d+) /.exec(out)?.[1];
      if (site && skills && hint && relay) {
        clearTimeout(timer);
        resolve({ child, site, skills, hint, relay, exited, stderr: () => err });
      }
    });
    exited.then((code) => reject(new Error(`exited ${code} before its banner:\n${out}\n${err}`)));
  });
}

/** Cleanup: kill the whole process group (a server orphaned by npm included), close the pipes. */
function stop(started: Started): void {
  try {
    process.kill(-started.child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
  started.child.stdout?.destroy();
  started.child.stderr?.destroy();
}

/** A TCP server on `port` of 127.0.0.1 (0: any free one). */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** A raw GET (node:http: Host as given, no decompression). */
function get(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
    (done, fail) => {
      request(url, { headers, agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => done({ status: res.statusCode!, headers: res.headers, body }));
      }).on("error", fail).end();
    },
  );
}

/** Whether nothing listens on `port` of 127.0.0.1. */
function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
}

/** Wait (5 s at most) until the three ports of `started` are free again. */
async function assertPortsFreed(started: Started): Promise<void> {
  const ports = [started.site, started.skills, started.relay].map((url) =>
    Number(new URL(url).port)
  );
  for (let i = 0; i < 50; i++) {
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.fail(`ports ${ports} still taken 5 s after SIGTERM: the server outlived npm start`);
}

const run = (command: string, args: string[], env: Record<string, string | undefined>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(command, args, { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

describe("npm start", { skip: (!POSIX && "POSIX signals") || ONCE_UNDER_DENO }, () => {
  test("SIGTERM to npm frees both ports; the banner's hint runs from this clone", {
    timeout: 90_000,
  }, async () => {
    const started = await start("npm", ["start", "--silent"]);
    try {
      assert.equal((await fetch(`${started.site}/playground.json`)).status, 200);
      // From a clone, npm start's hint names the clone's bin by its absolute path (it runs from any
      // folder; `npm run cli --` is only for a command run as `npm run cli`).
      const bin = join(ROOT, "bin", "skillmux.mjs");
      assert.ok(started.hint.startsWith(`${bin} mcp add `), started.hint);
      assert.match(started.hint.slice(bin.length), /^ mcp add http:\S+ --name skillmux$/);
      // Run the hint as printed, into a throwaway config folder.
      const home = await mkdtemp(join(tmpdir(), "skillmux-start-"));
      try {
        const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, "config") };
        const [command, ...args] = started.hint.split(" ");
        const added = await run(command, args, env);
        assert.equal(added.code, 0, added.stderr);
        const config = await readFile(join(home, "config", "skillmux", "config.toml"), "utf8");
        assert.ok(config.includes(started.skills), config);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
      process.kill(started.child.pid!, "SIGTERM");
      await started.exited;
      await assertPortsFreed(started);
    } finally {
      stop(started);
    }
  });

  test("SIGTERM to scripts/start.ts itself: exit 0, ports free", { timeout: 60_000 }, async () => {
    const started = await start("node", ["--import", "tsx", "scripts/start.ts"]);
    try {
      process.kill(started.child.pid!, "SIGTERM");
      assert.equal(await started.exited, 0);
      await assertPortsFreed(started);
    } finally {
      stop(started);
    }
  });

  test("a taken port moves to the next free one, as Vite does", { timeout: 60_000 }, async () => {
    const taken = await listenOn(0);
    const port = (taken.address() as { port: number }).port;
    let started: Started | undefined;
    try {
      for (const variable of ["PORT", "SKILLS_PORT"]) {
        started = await start("node", ["--import", "tsx", "scripts/start.ts"], {
          ...ENV,
          [variable]: String(port),
        });
        const url = variable === "PORT" ? started.site : started.skills;
        assert.ok(Number(new URL(url).port) > port, `${variable}: ${url}`);
        assert.match(started.stderr(), new RegExp(`port ${port} is taken, trying ${port + 1}`));
        stop(started);
        await started.exited;
      }
    } finally {
      if (started) stop(started);
      taken.close();
    }
  });

  test("ten taken ports say how to pick another and exit 1", { timeout: 60_000 }, async (t) => {
    const first = await listenOn(0);
    const port = (first.address() as { port: number }).port;
    const taken = [first];
    try {
      for (let i = 1; i < 10; i++) taken.push(await listenOn(port + i));
    } catch {
      taken.forEach((server) => server.close());
      return t.skip(`ports ${port}–${port + 9} are not all free to take`);
    }
    try {
      const out = await run("node", ["--import", "tsx", "scripts/start.ts"], {
        ...ENV,
        PORT: String(port),
      });
      assert.equal(out.code, 1, out.stdout + out.stderr);
      assert.match(
        out.stderr,
        new RegExp(`Ports ${port} to ${port + 9} are taken.*PORT=<port> npm start`),
      );
      assert.doesNotMatch(out.stderr, /at .*\.ts:\d+/, "a message, not a stack trace");
    } finally {
      taken.forEach((server) => server.close());
    }
  });

  test("playground.json names the relay; another Host gets no token", {
    timeout: 60_000,
  }, async () => {
    const started = await start("node", ["--import", "tsx", "scripts/start.ts"]);
    try {
      const config = await (await fetch(`${started.site}/playground.json`)).json();
      assert.equal(config.server, started.skills);
      assert.match(config.relay.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(config.relay.token, /^[\w-]{43}$/);
      const rebound = await get(`${started.site}/playground.json`, { host: "evil.example" });
      assert.equal(rebound.status, 421);
      assert.doesNotMatch(rebound.body, new RegExp(config.relay.token));
    } finally {
      stop(started);
    }
  });

  test("the skills server serves the example team folder, not the built-ins", {
    timeout: 60_000,
  }, async () => {
    const started = await start("node", ["--import", "tsx", "scripts/start.ts"]);
    try {
      const client = await connect({ name: "team", url: started.skills });
      try {
        const uris = (await client.listResources()).map((r) => r.uri).sort();
        assert.deepEqual(uris, ["skill://lab-data-layout", "skill://samtools"]);
        const [samtools] = await client.readResource("skill://samtools");
        assert.match(String(samtools.text), /team convention overriding the built-in/);
      } finally {
        await client.close();
      }
    } finally {
      stop(started);
    }
  });
});
