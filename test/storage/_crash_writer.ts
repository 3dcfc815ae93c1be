/**
 * Child process for the crash test: writes a 4 MiB value to key `a.md` under the root given as
 * the last argument. Run under `ulimit -f` it dies of SIGXFSZ in the middle of the write.
 *
 * @module
 */

import process from "node:process";
import { createFsStorage } from "../../lib/storage/fs.ts";

const store = createFsStorage({ root: process.argv.at(-1)! });
// `--warm` loads the modules and exits: a runtime that fills its compile cache on first run
// (Deno) must do so before `ulimit -f` is in force, or it dies before the write starts.
if (process.argv.includes("--warm")) process.exit(0);
console.log("writing");
await store.set("a.md", "x".repeat(4 << 20));
console.log("wrote");
