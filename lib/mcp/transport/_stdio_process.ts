// Private: signalling a stdio child and describing how it failed.

import type { ChildProcess } from "node:child_process";
import { NetworkError } from "../protocol/errors.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import { redact } from "../policy/redact.ts";

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
