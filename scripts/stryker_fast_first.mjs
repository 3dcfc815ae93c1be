// A Stryker test runner for `npm run mutate`: the tap runner, with two changes that make a run
// cheaper without changing which mutants are killed or survive.
//
// - A mutant's test files run fastest first (by their wall time in the initial test run, node's
//   start included), so that a
//   mutant one quick rules file kills is not first run through every slow end-to-end file that
//   happens to reach it too.
// - Each file gets its own time limit, 3 times its initial wall time plus 10 s, and a file over it
//   ends the mutant as a timeout (which counts as killed, as Stryker's own timeout does). Stryker
//   times a mutant as a whole (1.5 times the sum of every covering file, plus 10 s): a mutant that
//   makes a 1-second file loop forever cost up to a minute. A file is stopped with SIGKILL, since
//   a synchronous loop never runs a signal handler.
//
// The initial run happens in one test process, the mutants are spread over all of them: the file
// times go to a file in the sandbox (the working directory every process shares).

import childProcess from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { MutantRunStatus } from "@stryker-mutator/api/test-runner";
import {
  commonTokens,
  declareFactoryPlugin,
  PluginKind,
  tokens,
} from "@stryker-mutator/api/plugin";
import { TapTestRunner } from "@stryker-mutator/tap-runner";

const TIMES = "stryker-file-times.json";
const FACTOR = 3;
const MARGIN_MS = 10_000;

/**
 * The limit of the file being spawned, when a mutant run is under way; whether one hit it; and,
 * in the initial run (which runs with coverage, slower than a mutant's run), each file's wall time.
 */
const watch = { limitOf: undefined, timedOut: false, walls: undefined };

// The tap runner spawns `node <args> <test file>` through `child_process.spawn`; wrapping the
// builtin's export (and syncing its ESM view) lets this file time each file's process.
const spawn = childProcess.spawn;
childProcess.spawn = function (command, args, options) {
  const child = spawn.call(this, command, args, options);
  const file = args.at(-1);
  const started = performance.now();
  const walls = watch.walls;
  if (walls !== undefined) child.once("exit", () => walls.set(file, performance.now() - started));
  const limit = watch.limitOf?.(file);
  if (limit !== undefined) {
    const timer = setTimeout(() => {
      watch.timedOut = `${file} ran over its limit of ${(limit / 1000).toFixed(1)} s`;
      child.kill("SIGKILL");
    }, limit);
    child.once("exit", () => clearTimeout(timer));
  }
  return child;
};
syncBuiltinESMExports();

class FastFirstTapRunner extends TapTestRunner {
  /** @type {Map<string, number> | undefined} */
  #times;

  async dryRun(options) {
    watch.walls = new Map();
    try {
      const result = await super.dryRun(options);
      if (result.status === "complete") {
        writeFileSync(TIMES, JSON.stringify(Object.fromEntries(watch.walls)));
      }
      return result;
    } finally {
      watch.walls = undefined;
    }
  }

  async mutantRun(options) {
    const files = options.testFilter;
    const times = this.#read();
    if (files === undefined || times === undefined) return super.mutantRun(options);
    const time = (file) => times.get(file) ?? Number.POSITIVE_INFINITY;
    watch.timedOut = false;
    watch.limitOf = (file) => times.has(file) ? FACTOR * times.get(file) + MARGIN_MS : undefined;
    try {
      const result = await super.mutantRun({
        ...options,
        testFilter: [...files].sort((a, b) => time(a) - time(b)),
      });
      if (watch.timedOut === false) return result;
      this.log.info(`mutant ${options.activeMutant.id}: ${watch.timedOut}, a timeout`);
      return { status: MutantRunStatus.Timeout };
    } finally {
      watch.limitOf = undefined;
    }
  }

  #read() {
    if (this.#times !== undefined) return this.#times;
    try {
      this.#times = new Map(Object.entries(JSON.parse(readFileSync(TIMES, "utf8"))));
    } catch {
      return undefined; // not written yet: Stryker's order and timeout for this mutant
    }
    return this.#times;
  }
}

/** As the tap runner's own factory: the instrumenter's global namespace, `__stryker__`. */
function createFastFirstTapRunner(injector) {
  return injector.provideValue("globalNamespace", "__stryker__").injectClass(FastFirstTapRunner);
}
createFastFirstTapRunner.inject = tokens(commonTokens.injector);

export const strykerPlugins = [
  declareFactoryPlugin(PluginKind.TestRunner, "tap-fast-first", createFastFirstTapRunner),
];
