/**
 * Child process for the kill -9 test: writes complete values to key `a.md` under the root given
 * as the last argument, one after another, until it is killed. Prints "ready" once the store is
 * open. Every value is `<n>:` followed by 256 KiB of one letter, so a torn write shows.
 *
 * @module
 */

import process from "node:process";
import { createFsStorage } from "../../lib/storage/fs.ts";

const store = createFsStorage({ root: process.argv.at(-1)! });
console.log("ready");
for (let n = 0; n < 100_000; n++) {
  await store.set("a.md", `${n}:${String.fromCharCode(97 + (n % 26)).repeat(256 << 10)}`);
}
