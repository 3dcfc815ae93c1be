// A Stryker reporter for `npm run mutate`: one JSON line per mutant as soon as it is tested, in
// reports/mutation/<scope>/mutants-<start time>.jsonl. A scope's full run takes hours on this
// machine; if it is stopped before the end, Stryker writes no report, but this log keeps every
// mutant already tested, and the files it finished can be left out of the next run
// (`npm run mutate -- <scope> --mutate <files>`).

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { commonTokens, declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";

class MutantLogReporter {
  static inject = [commonTokens.options];
  #file;

  constructor(options) {
    this.#file = options.mutantLog?.fileName ?? "reports/mutation/mutants.jsonl";
    mkdirSync(dirname(this.#file), { recursive: true });
    writeFileSync(this.#file, "");
  }

  onMutantTested(result) {
    const { id, fileName, location, mutatorName, replacement, status, killedBy } = result;
    const line = { id, fileName, line: location.start.line, mutatorName, replacement, status };
    const why = status === "Timeout" ? { statusReason: result.statusReason } : {};
    appendFileSync(this.#file, `${JSON.stringify({ ...line, killedBy, ...why })}\n`);
  }
}

/** Declares the `mutantLog` option, so that Stryker does not warn of an unknown one. */
export const strykerValidationSchema = {
  $schema: "http://json-schema.org/draft-07/schema",
  type: "object",
  properties: {
    mutantLog: {
      type: "object",
      properties: { fileName: { type: "string" } },
      additionalProperties: false,
    },
  },
};

export const strykerPlugins = [
  declareClassPlugin(PluginKind.Reporter, "mutant-log", MutantLogReporter),
];
