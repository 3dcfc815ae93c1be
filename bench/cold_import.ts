// Cold `import` of the npm build of "." in a fresh Node process, against `node -e 0` and the
// official SDK's Client in the same run (median of alternating runs). Needs `npm run build`.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fmt, quantile } from "./_stats.ts";

const RUNS = 15;
const ENTRY = fileURLToPath(new URL("../dist/mod.js", import.meta.url));

function wall(args: string[]): number {
  const start = performance.now();
  execFileSync(process.execPath, args, { stdio: "ignore" });
  return performance.now() - start;
}

export function benchColdImport(): void {
  console.log(`\n## Cold import in Node ${process.version} (median of ${RUNS}, fresh processes)`);
  if (!existsSync(ENTRY)) {
    console.log("skipped: run `npm run build` first (dist/mod.js is the npm entry)");
    return;
  }
  const rows = {
    empty: [] as number[],
    ours: [] as number[],
    sdk: [] as number[],
  };
  for (let i = 0; i < RUNS; i++) {
    rows.empty.push(wall(["-e", "0"]));
    rows.ours.push(wall(["--input-type=module", "-e", `await import(${JSON.stringify(ENTRY)})`]));
    rows.sdk.push(
      wall([
        "--input-type=module",
        "-e",
        'await import("@modelcontextprotocol/sdk/client/index.js")',
      ]),
    );
  }
  const median = (times: number[]) => quantile(times.sort((a, b) => a - b), 0.5);
  const empty = median(rows.empty);
  console.log(`node -e 0                                  ${fmt(empty)}`);
  console.log(`import "." (dist/mod.js)                   +${fmt(median(rows.ours) - empty)}`);
  console.log(`import the SDK's Client                    +${fmt(median(rows.sdk) - empty)}`);
}
