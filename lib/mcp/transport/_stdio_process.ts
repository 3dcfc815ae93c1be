// Private: a stdio child's life outside the protocol: tracking it until it exits, stopping it the
// way the MCP spec says (close stdin, wait, SIGTERM, wait, SIGKILL), and describing how it failed.

import type { ChildProcess } from "node:child_process";
import { NetworkError, TimeoutError } from "../protocol/errors.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import { redact } from "../policy/redact.ts";

/** Children still running, killed when the host process exits (they may be unref'd). */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Keep `child` until it closes; SIGKILL it if the host process exits first. */
export function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("close", () => liveChildren.delete(child));
  const host =
    (globalThis as { process?: { on?: (event: "exit", fn: () => void) => void } }).process;
  if (exitHookInstalled || typeof host?.on !== "function") return;
  exitHookInstalled = true;
  host.on("exit", () => {
    for (const running of liveChildren) {
      try {
        running.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/** How long to wait at each step of {@linkcode stopChild}, in milliseconds. */
export interface StopWaits {
  /** After closing stdin, before SIGTERM (0: SIGTERM at once, for a child that failed). */
  closeMs: number;
  /** After SIGTERM, before SIGKILL. */
  killMs: number;
}

/** Resolves after `ms`, or `false` at once when `ended` settles first. */
function waitFor(ended: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
  return Promise.race([ended.then(() => false), elapsed]).finally(() => clearTimeout(timer));
}

/**
 * Stop `child` as the MCP spec's stdio shutdown says: close its stdin and wait for it to exit;
 * if it has not within `closeMs` (or when `cut` settles first), SIGTERM; if not within `killMs`
 * more, SIGKILL. Resolves once it has exited (`exited`).
 */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  hasExited: () => boolean,
  waits: StopWaits,
  cut?: Promise<void>,
): Promise<void> {
  if (hasExited()) return await exited;
  try {
    child.stdin?.end();
  } catch { /* already gone */ }
  // `cut` ends the first wait early: the child showed it will not exit by itself.
  if (waits.closeMs > 0) await waitFor(cut ? Promise.race([exited, cut]) : exited, waits.closeMs);
  if (hasExited()) return await exited;
  signalChild(child, "SIGTERM");
  if (!(await waitFor(exited, waits.killMs))) return;
  if (!hasExited()) signalChild(child, "SIGKILL");
  await exited;
}

/** Signal the child. Deno's `child.kill` refuses a second signal, so fall back to `process.kill`. */
export function signalChild(child: ChildProcess, signal: "SIGTERM" | "SIGKILL"): void {
  try {
    if (child.kill(signal) || child.pid === undefined) return;
    const process = (globalThis as { process?: { kill?(pid: number, signal: string): void } })
      .process;
    process?.kill?.(child.pid, signal);
  } catch { /* the child is gone already */ }
}

function withStderr(message: string, tail: string[], secrets: readonly string[]): string {
  const text = tail.length === 0
    ? message
    : `${message}\nstderr (last ${tail.length} lines):\n  ${tail.join("\n  ")}`;
  return redact(text, secrets);
}

/** The child could not be started: name the command and the reason. */
export function spawnError(
  label: string,
  server: PreparedServer,
  tail: string[],
  error: unknown,
): NetworkError {
  const code = (error as { code?: string })?.code;
  const command = JSON.stringify(server.command);
  const why = code === "ENOENT"
    ? `command ${command} was not found (check the command and PATH)`
    : code === "EACCES"
    ? `command ${command} is not executable`
    : `command ${command} could not be started${code ? ` (${code})` : ""}`;
  return new NetworkError(withStderr(`Cannot start ${label}: ${why}`, tail, server.secrets), {
    server: server.name,
    cause: error,
  });
}

/** The child exited or was killed: the command, the exit code or signal, the stderr tail. */
export function exitError(
  label: string,
  server: PreparedServer,
  tail: string[],
  code: number | null,
  signal: string | null,
): NetworkError {
  const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
  const message = `${label} (command ${JSON.stringify(server.command)}) ${how}`;
  return new NetworkError(withStderr(message, tail, server.secrets), { server: server.name });
}

/** The child wrote nothing to stdout within its start-up allowance: the command, the stderr tail. */
export function startupError(
  label: string,
  server: PreparedServer,
  tail: string[],
  allowanceMs: number,
): TimeoutError {
  const command = JSON.stringify([server.command, ...server.args].join(" "));
  const message = `${label} (command ${command}) did not start: no answer within its ` +
    `${allowanceMs} ms start-up allowance (raise startupTimeoutMs if it needs longer)`;
  return new TimeoutError(withStderr(message, tail, server.secrets), { server: server.name });
}
