// A Stryker test runner for `npm run mutate`: the tap runner, but a mutant's test files run
// fastest first (by their time in the initial test run), so that a mutant one quick rules file
// kills is not first run through every slow end-to-end file that happens to reach it too. Which
// files run, and so which mutants are killed or survive, is unchanged; only the order is.
//
// The initial run happens in one test process, the mutants are spread over all of them: the file
// times go to a file in the sandbox (the working directory every process shares).

import { readFileSync, writeFileSync } from "node:fs";
import {
  commonTokens,
  declareFactoryPlugin,
  PluginKind,
  tokens,
} from "@stryker-mutator/api/plugin";
import { TapTestRunner } from "@stryker-mutator/tap-runner";

const TIMES = "stryker-file-times.json";

class FastFirstTapRunner extends TapTestRunner {
  /** @type {Map<string, number> | undefined} */
  #times;

  async dryRun(options) {
    const result = await super.dryRun(options);
    if (result.status === "complete") {
      const times = Object.fromEntries(result.tests.map((t) => [t.id, t.timeSpentMs]));
      writeFileSync(TIMES, JSON.stringify(times));
    }
    return result;
  }

  mutantRun(options) {
    const files = options.testFilter;
    const times = this.#read();
    if (files === undefined || times === undefined) return super.mutantRun(options);
    const time = (file) => times.get(file) ?? Number.POSITIVE_INFINITY;
    return super.mutantRun({
      ...options,
      testFilter: [...files].sort((a, b) => time(a) - time(b)),
    });
  }

  #read() {
    if (this.#times !== undefined) return this.#times;
    try {
      this.#times = new Map(Object.entries(JSON.parse(readFileSync(TIMES, "utf8"))));
    } catch {
      return undefined; // not written yet: Stryker's order for this mutant
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
