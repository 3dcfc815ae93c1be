// Private: `--feedback <file>` of the commands that rank (select, catalog, eval, serve --gateway):
// a `skillmux eval` file's labelled requests, read for that command only.

import { readFile } from "node:fs/promises";
import { parseLabelledRequests } from "../catalog/select/evaluate.ts";
import type { FeedbackRequest } from "../catalog/model/types.ts";
import { CliError, str, UsageError, type Values } from "./_args.ts";

/**
 * The labelled requests of `--feedback <file>` (a `skillmux eval` file), or `undefined` without
 * the flag: a file that cannot be read or parsed is an error naming it (and the line and field).
 */
export async function feedbackOption(values: Values): Promise<FeedbackRequest[] | undefined> {
  const file = str(values, "feedback");
  if (file === undefined) return undefined;
  if (file === "") throw new UsageError("--feedback needs a file (a labelled set, as eval reads)");
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new CliError(`Cannot read --feedback ${file}: ${error.message}`, { cause: error });
  });
  try {
    return parseLabelledRequests(text);
  } catch (error) {
    throw new CliError(`--feedback ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The option line and spec of `--feedback`, shared by the commands that rank. */
export const FEEDBACK_OPTION =
  "--feedback <file>       rank with your labelled requests (an eval file) as examples";
export const FEEDBACK_SPEC = { feedback: { type: "string" } } as const;
