// The keyword index kept between processes (issue 27, `indexStorage`): the first createCatalog of
// the built-in skills in a new process, indexing them, next to loading the index saved by an
// earlier process (what each CLI command does). Fresh processes, alternated, in the same run.
//
//   node --import tsx bench/index_store.ts [runs]

import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { fmt, quantile } from "./_stats.ts";
import { isMain } from "./_main.ts";

const child = fileURLToPath(new URL("./_index_store_child.ts", import.meta.url));
const run = (folder: string) =>
  (JSON.parse(execFileSync("node", ["--import", "tsx", child, folder], { encoding: "utf8" })) as {
    ms: number;
  }).ms;

export async function benchIndexStore(runs = 9): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), "skillmux-bench-index-"));
  try {
    run(folder); // the first process indexes and saves
    const indexed: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < runs; i++) {
      indexed.push(run("none"));
      loaded.push(run(folder));
    }
    indexed.sort((a, b) => a - b);
    loaded.sort((a, b) => a - b);
    const show = (t: number[]) =>
      `${fmt(quantile(t, 0.5)).padStart(10)} (${fmt(t[0])}–${fmt(t[t.length - 1])})`;
    console.log(`\n## First catalog of the built-in skills in a new process (median of ${runs})`);
    console.log(`indexing the entries                 ${show(indexed)}`);
    console.log(
      `loading the index a process saved    ${show(loaded)}  ${
        (quantile(loaded, 0.5) / quantile(indexed, 0.5)).toFixed(2)
      }×`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (isMain(import.meta)) {
  await benchIndexStore(Number(process.argv[2] ?? 9));
  process.exit(0);
}
