// Private: start a stdio server's process and wire its pipes: stdout split into lines (capped),
// stderr into the tail, and one promise that settles when it has exited. What the lines mean and
// when to stop it is the transport's business (_stdio_transport.ts).

import type { ChildProcess } from "node:child_process";
import { type NodeBuiltins, nodeBuiltins } from "../../_node.ts";
import { NetworkError, ProtocolError } from "../protocol/errors.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import { childEnv } from "./_stdio_env.ts";
import { LineSplitter, type LineTail } from "./_stdio_lines.ts";
import { exitError, spawnError, trackChild } from "./_stdio_process.ts";
import type { StdioTransportOptions } from "./stdio_options.ts";

/** A running child: the process, when it has exited, and whether it has. */
export interface SpawnedChild {
  child: ChildProcess;
  /** Settles once the child has exited and its pipes are closed (or 200 ms after its exit). */
  exited: Promise<void>;
  hasExited(): boolean;
}

/** What the child's events go to. */
export interface ChildHandlers {
  /** Complete stdout lines, in order. */
  lines(lines: string[]): void;
  /** The child failed: it exited, could not start, or wrote a line over the cap. */
  fail(error: Error): void;
  diagnose(text: string): void;
}

/** Start `server`'s command; a failure to start is passed to `handlers.fail` (and `undefined`). */
export function spawnChild(
  server: PreparedServer,
  options: StdioTransportOptions,
  label: string,
  stderr: LineTail,
  handlers: ChildHandlers,
): SpawnedChild | undefined {
  let node: NodeBuiltins;
  try {
    node = nodeBuiltins("The stdio transport");
  } catch (error) {
    handlers.fail(
      new NetworkError(
        `Cannot start ${label}: stdio needs Deno 2 or Node >= 20.16 (child processes are unavailable here)`,
        { server: server.name, cause: error },
      ),
    );
    return undefined;
  }
  let child: ChildProcess;
  try {
    child = node.childProcess.spawn(server.command!, server.args, {
      cwd: server.cwd,
      env: childEnv(node.env, options.inheritEnv ?? "minimal", server.env),
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
  } catch (error) {
    handlers.fail(spawnError(label, server, stderr.lines(), error));
    return undefined;
  }
  let hasExited = false;
  let exitTimer: ReturnType<typeof setTimeout> | undefined;
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      hasExited = true;
      if (exitTimer !== undefined) clearTimeout(exitTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve();
    };
    const exit = (code: number | null, signal: string | null) =>
      handlers.fail(exitError(label, server, stderr.lines(), code, signal));
    child.once("close", (code: number | null, signal: string | null) => {
      exit(code, signal);
      done();
    });
    child.once("exit", (code: number | null, signal: string | null) => {
      hasExited = true;
      // Wait briefly for the last stderr bytes ("close"), unless a grandchild holds the pipes.
      exitTimer = setTimeout(() => {
        exit(code, signal);
        done();
      }, 200);
    });
    child.once("error", (error: Error) => {
      if (child.pid !== undefined) return handlers.diagnose(`${label}: ${error.message}`);
      handlers.fail(spawnError(label, server, stderr.lines(), error));
      done();
    });
  });
  const limit = options.maxLineBytes ?? 4 * 1024 * 1024;
  const splitter = new LineSplitter(limit);
  child.stdout!.on("data", (chunk: Uint8Array) => {
    const got = splitter.push(chunk);
    if (got === undefined) {
      return handlers.fail(
        new ProtocolError(`${label} wrote a line longer than ${limit} bytes to stdout`, {
          server: server.name,
        }),
      );
    }
    if (got.length > 0) handlers.lines(got);
  });
  child.stderr!.on("data", (chunk: Uint8Array) => stderr.push(chunk));
  child.stdin!.on(
    "error",
    (error: Error) => handlers.diagnose(`${label}: stdin: ${error.message}`),
  );
  child.stdout!.on("error", () => {});
  child.stderr!.on("error", () => {});
  trackChild(child);
  return { child, exited, hasExited: () => hasExited };
}
