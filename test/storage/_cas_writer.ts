/**
 * Child process for the cross-process compareAndSet test: adds 1 to the number at key `n.txt`
 * under the root given as the last argument, `count` times (the argument before it), each time
 * reading the value and swapping it only if no one changed it since. Waits for a line on stdin
 * first, so that every child starts at once; prints how many swaps lost a race.
 *
 * @module
 */

import process from "node:process";
import { createFsStorage } from "../../lib/storage/fs.ts";

const root = process.argv.at(-1)!;
const count = Number(process.argv.at(-2));
const store = createFsStorage({ root });
console.log("ready");
await new Promise((resolve) => process.stdin.once("data", resolve));
let lost = 0;
for (let i = 0; i < count; i++) {
  for (;;) {
    const seen = await store.get("n.txt");
    if (await store.compareAndSet!("n.txt", seen, String(Number(seen ?? "0") + 1))) break;
    lost++;
  }
}
console.log(`lost ${lost}`);
process.exit(0);
