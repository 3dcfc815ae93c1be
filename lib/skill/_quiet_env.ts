// Private: run the `yaml` parser where the environment may not be readable.
//
// `yaml`'s Node build reads the debug switches LOG_TOKENS and LOG_STREAM from `process.env`
// on every token. Under Deno without `--allow-env` that read throws `NotCapable`, so no skill
// (not even a built-in) could be parsed. Both switches are off unless set, so when the read is
// denied the parse runs again, synchronously, with an empty `process.env` in place, which is
// restored before anything else can run.

import { isPermissionError } from "../_permission.ts";

let denied = false;

/** `parse()`, retried with an empty `process.env` if reading the environment is denied. */
export function withQuietEnv<T>(parse: () => T): T {
  if (!denied) {
    try {
      return parse();
    } catch (error) {
      if (!isPermissionError(error)) throw error;
      denied = true;
    }
  }
  const proc = (globalThis as { process?: object }).process;
  const own = proc === undefined ? undefined : Object.getOwnPropertyDescriptor(proc, "env");
  if (proc === undefined || own === undefined || !own.configurable) return parse();
  Object.defineProperty(proc, "env", { value: {}, configurable: true, writable: true });
  try {
    return parse();
  } finally {
    Object.defineProperty(proc, "env", own);
  }
}
