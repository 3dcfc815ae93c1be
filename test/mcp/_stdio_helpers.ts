// Helpers for the stdio transport tests: run fixtures with the current runtime, watch pids.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { type PreparedServer, prepareServer } from "../../lib/mcp/policy/prepare.ts";
import type { McpServerConfig } from "../../lib/mcp/protocol/types.ts";

/** The repository root (children run there, so `--import tsx` resolves). */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

/** Whether the tests run under Deno. */
export const underDeno: boolean = deno !== undefined;

/** Command and args that run `test/mcp/_stdio_fixtures/<file>` with the runtime running the tests. */
export function fixture(file: string, ...args: string[]): { command: string; args: string[] } {
  const path = fileURLToPath(new URL(`./_stdio_fixtures/${file}`, import.meta.url));
  if (deno) return { command: deno.execPath(), args: ["run", "-A", "--quiet", path, ...args] };
  return { command: process.execPath, args: ["--import", "tsx", path, ...args] };
}

/** `@modelcontextprotocol/server-everything` over stdio, always on Node. */
export function everything(): { command: string; args: string[] } {
  const path = `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
  return { command: deno ? "node" : process.execPath, args: [path, "stdio"] };
}

/** Prepare a stdio server config with the repository root as cwd. */
export function stdioServer(
  name: string,
  target: { command: string; args: string[] },
  extra: Partial<McpServerConfig> = {},
): PreparedServer {
  return prepareServer({ name, ...target, cwd: ROOT, ...extra });
}

/** Whether a process with `pid` exists (a zombie counts as existing on Linux). */
export function alive(pid: number): boolean {
  if (existsSync("/proc/self")) return existsSync(`/proc/${pid}`);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== "ESRCH";
  }
}

/** Wait until `condition()` holds; false after `ms` (a bound, not a timing assertion). */
export async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Wait until `pid` is gone; false after `ms`. */
export function gone(pid: number, ms = 10_000): Promise<boolean> {
  return until(() => !alive(pid), ms);
}

/** A JSON-RPC request. */
export function rpc(id: number | string, method: string, params?: Record<string, unknown>) {
  return { jsonrpc: "2.0" as const, id, method, ...(params ? { params } : {}) };
}

/** A temporary file the fixture appends its pid to; `pids()` reads them back. */
export async function pidFile(): Promise<
  { path: string; pids(): Promise<number[]>; done(): Promise<void> }
> {
  const dir = await mkdtemp(join(tmpdir(), "skillmux-pids-"));
  const path = join(dir, "pids");
  return {
    path,
    async pids() {
      const text = await readFile(path, "utf8").catch(() => "");
      return text.split("\n").filter(Boolean).map(Number);
    },
    done: () => rm(dir, { recursive: true, force: true }),
  };
}
