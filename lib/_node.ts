// Private: Node's built-in modules, reached by feature detection rather than `node:` imports.
//
// Deno 2 and Node >= 20.16 both expose `process.getBuiltinModule`. Reaching the
// filesystem through it keeps every module of "." free of `node:` imports, so
// bundlers building "." for a browser never meet a built-in, while Deno and Node
// still get the filesystem with zero configuration.

import type * as ChildProcess from "node:child_process";
import type * as Dns from "node:dns/promises";
import type * as FsPromises from "node:fs/promises";
import type * as Os from "node:os";
import type * as Path from "node:path";

/** The built-ins skillmux uses. */
export interface NodeBuiltins {
  fs: typeof FsPromises;
  path: typeof Path;
  os: typeof Os;
  childProcess: typeof ChildProcess;
  dns: typeof Dns;
  env: Record<string, string | undefined>;
}

interface ProcessLike {
  getBuiltinModule?: (id: string) => unknown;
  env?: Record<string, string | undefined>;
}

/** Whether this runtime offers Node's built-ins (Deno 2, Node >= 20.16). */
export function hasNodeBuiltins(): boolean {
  return typeof (globalThis as { process?: ProcessLike }).process?.getBuiltinModule === "function";
}

/**
 * The built-ins, or a clear error naming `feature` when the runtime has none
 * (a browser, a worker, Node older than 20.16).
 */
export function nodeBuiltins(feature: string): NodeBuiltins {
  const process = (globalThis as { process?: ProcessLike }).process;
  const load = process?.getBuiltinModule;
  if (typeof load !== "function") {
    throw new TypeError(
      `${feature} needs a filesystem: run it on Deno 2 or Node >= 20.16 (process.getBuiltinModule is missing)`,
    );
  }
  return {
    fs: load.call(process, "node:fs/promises") as typeof FsPromises,
    path: load.call(process, "node:path") as typeof Path,
    os: load.call(process, "node:os") as typeof Os,
    childProcess: load.call(process, "node:child_process") as typeof ChildProcess,
    dns: load.call(process, "node:dns/promises") as typeof Dns,
    env: process?.env ?? {},
  };
}
