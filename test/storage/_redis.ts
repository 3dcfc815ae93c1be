// A real redis-server (Debian's package) for tests and benchmarks: on 127.0.0.1 with a free
// port and a temporary folder, stopped (and the folder removed) by stop(), killed when the
// process exits. Append-only persistence with fsync on every write, so kill() + start() is a
// crash and a restart that keeps every acknowledged write.
//
//   const redis = await startRedis();
//   const client = new Redis(redis.url);  // …
//   await redis.kill(); await redis.start();  // a crash and a restart on the same port
//   await redis.stop();

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { closedPort } from "../_closed_port.ts";
import { within } from "../_wait.ts";

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];
const STARTUP_MS = 10_000;

/** A running (or stopped, for a restart) redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Start it again on the same port and folder (after kill()). */
  start(): Promise<void>;
  /** SIGKILL: a crash. Acknowledged writes survive (appendfsync always). */
  kill(): Promise<void>;
  /** Stop for good and remove the folder. */
  stop(): Promise<void>;
}

/** The redis-server binary, or a clear error saying how to get it. */
export function redisServerPath(): string {
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      "redis-server is not installed: `apt-get install redis-server` (scripts/test.sh installs it)",
    );
  }
  return found;
}

function launch(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(binary, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    "yes",
    "--appendfsync",
    "always",
    "--protected-mode",
    "no",
    "--daemonize",
    "no",
    "--always-show-logo",
    "no",
  ], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready within ${STARTUP_MS} ms`), STARTUP_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`redis-server on port ${port}: ${why}\n${output}`));
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", read);
        resolve(child);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => fail(`exited with ${code}`));
    child.once("error", (error) => fail(error.message));
  });
}

/** The child's exit; a SIGKILL after 10 s if it has not come (it then comes at once). */
async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await within(exit, 10_000, "redis-server's exit").catch(() => child.kill("SIGKILL"));
  await within(exit, 5_000, "redis-server's exit after SIGKILL");
}

/** Start redis-server on a free port of 127.0.0.1 (three tries, in case a port is taken). */
export async function startRedis(): Promise<RedisServer> {
  const binary = redisServerPath();
  const dir = await mkdtemp(join(tmpdir(), "skillmux-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await closedPort();
    try {
      child = await launch(binary, port, dir);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  const killNow = () => child?.kill("SIGKILL");
  process.on("exit", killNow);
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = await launch(binary, port, dir);
    },
    async kill() {
      const running = child!;
      running.kill("SIGKILL");
      await exited(running);
    },
    async stop() {
      process.off("exit", killNow);
      const running = child!;
      running.kill("SIGTERM");
      await exited(running);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * Keep ioredis from printing "Unhandled error event" while Redis is down on purpose: the
 * errors reach the callers anyway (as rejected commands).
 */
export function quietRedisErrors(
  unstorage: { getMount(key?: string): { driver: { getInstance?: () => unknown } } },
): void {
  const client = unstorage.getMount("").driver.getInstance?.() as
    | { on(event: "error", listener: () => void): void }
    | undefined;
  client?.on("error", () => {});
}
