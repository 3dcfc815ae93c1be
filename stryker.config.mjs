// Mutation testing (StrykerJS) of the security-critical folders and the newer code; run through
// `npm run mutate` (scripts/mutate.ts), one scope at a time: MUTATE_SCOPE (policy, server, storage,
// catalog, prompt, auth, registry, install, skills, resolve) picks the files to mutate and the only test files run against them (Node's test runner, TAP, through tsx).
// Not part of `npm test`: it is slow. Reports go to reports/mutation/<scope>/ (not committed).

import { readdirSync, readFileSync } from "node:fs";

/**
 * The lines of `file` from the first line containing `from` to the line before the first later
 * line containing `to` (or through it plus `extra` lines), as a Stryker `file:start-end` range;
 * markers rather than numbers, so that edits above them do not shift the range.
 */
function lines(file, from, to, extra = -1) {
  const all = readFileSync(file, "utf8").split("\n");
  const start = all.findIndex((line) => line.includes(from));
  const end = all.findIndex((line, i) => i > start && line.includes(to));
  if (start < 0 || end < 0) throw new Error(`stryker.config.mjs: markers not found in ${file}`);
  return `${file}:${start + 1}-${end + 1 + extra}`;
}

/** Each scope: the files mutated and the test files that hold them. */
export const scopes = {
  policy: {
    mutate: ["lib/mcp/policy/**/*.ts", "!lib/mcp/policy/mod.ts"],
    tests: ["test/mcp/policy/*.test.ts"],
  },
  server: {
    // _http.ts whole, the request checks every endpoint makes (_endpoint.ts `admit`: origin,
    // Host, path, preflight, token, body size, JSON) and serve.ts's 405 for GET/DELETE when
    // stateless; not the routing to the SDK, the idle-server pool or close().
    mutate: [
      "lib/server/_http.ts",
      lines("lib/server/_endpoint.ts", "export async function admit", "return { user, body"),
      lines("lib/server/serve.ts", 'if (req.method !== "POST") {', "return;", 1),
    ],
    tests: [
      "test/server/security.test.ts",
      "test/server/origins.test.ts",
      "test/server/request_checks.test.ts",
      "test/server/serve.test.ts",
    ],
  },
  storage: {
    mutate: [
      "lib/storage/_fs_resolve.ts",
      "lib/storage/fs_write.ts",
      "lib/storage/_fs_names.ts",
      "lib/storage/_key_rules.ts",
    ],
    tests: [
      "test/storage/fs*.test.ts",
      "test/storage/key.test.ts",
    ],
  },
  // The newer code (issue 19). Notebook displays and re-exporting entries are left out: they
  // hold no rule of their folder. The catalog's rooms (model/, llm/, search/, build/, select/)
  // and the text cleaning it moved to shared ground, whose rules its tests hold.
  catalog: {
    mutate: [
      "lib/catalog/{model,llm,search,build,select}/*.ts",
      "lib/_text_clean.ts",
      "lib/_schema_text.ts",
      "!lib/catalog/build/_display.ts",
    ],
    tests: ["test/catalog/**/*.test.ts", "test/text_clean.test.ts"],
  },
  prompt: {
    mutate: ["lib/prompt/**/*.ts", "!lib/prompt/mod.ts", "!lib/prompt/_display.ts"],
    tests: ["test/prompt/*.test.ts"],
  },
  auth: {
    mutate: ["lib/mcp/auth/**/*.ts", "!lib/mcp/auth/mod.ts", "!lib/mcp/auth/_lazy.ts"],
    tests: ["test/mcp/auth/*.test.ts"],
  },
  registry: {
    mutate: [
      "lib/mcp/registry/**/*.ts",
      "lib/mcp/sealing/**/*.ts",
      "!lib/mcp/registry/_display.ts",
      "!lib/mcp/registry/_displayable.ts",
    ],
    tests: [
      "test/mcp/registry/*.test.ts",
      "test/mcp/sealing/*.test.ts",
    ],
  },
  install: {
    mutate: ["lib/install/**/*.ts", "!lib/install/mod.ts"],
    tests: ["test/install/*.test.ts"],
  },
  skills: {
    mutate: ["lib/mcp/skills/**/*.ts", "!lib/mcp/skills/mod.ts"],
    tests: ["test/mcp/skills/*.test.ts"],
  },
  resolve: {
    mutate: [
      "lib/resolve/**/*.ts",
      "!lib/resolve/mod.ts",
      "!lib/resolve/multi_user.ts",
      "!lib/resolve/_display.ts",
      "!lib/resolve/_displayable.ts",
      // Stryker 8.7's Babel parser refuses import attributes (`with { type: "json" }`), which
      // these load the built-in tables with: the whole run would abort at instrumenting. The two
      // tables hold no rule; builtin_source.ts (the built-in source's lookup) is not measured
      // until Stryker parses it.
      "!lib/resolve/_builtin_skills.ts",
      "!lib/resolve/_builtin_summaries.ts",
      "!lib/resolve/builtin_source.ts",
    ],
    // Not node_permissions.test.ts: it bundles lib/ with esbuild and runs the bundle in a child
    // `node`, where Stryker's instrumented code finds no Stryker (its initial run fails).
    tests: readdirSync("test/resolve")
      .filter((f) => f.endsWith(".test.ts") && f !== "node_permissions.test.ts")
      .map((f) => `test/resolve/${f}`),
  },
};

const scope = process.env.MUTATE_SCOPE ?? "";
if (!(scope in scopes)) {
  throw new Error(
    `stryker.config.mjs: set MUTATE_SCOPE to one of ${Object.keys(scopes).join(", ")} ` +
      `(got "${scope}"); npm run mutate does`,
  );
}
const { mutate, tests } = scopes[scope];
const out = `reports/mutation/${scope}`;

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  // The tap runner, each mutant's test files fastest first (scripts/stryker_fast_first.mjs).
  testRunner: "tap-fast-first",
  tap: {
    testFiles: tests,
    nodeArgs: ["--import", "tsx", "--test-reporter=tap"],
    forceBail: true,
  },
  plugins: [
    "@stryker-mutator/tap-runner",
    "./scripts/stryker_fast_first.mjs",
    "./scripts/stryker_mutant_log.mjs",
  ],
  mutate,
  // Per test file: the tap runner records which mutants each file ran, so a mutant runs only the
  // files that reached it. It files module-level code under the file that loaded it too (no
  // "static" mutants), so `ignoreStatic` would ignore nothing and is not set.
  coverageAnalysis: "perTest",
  // One test process by default: the machine is shared (scripts/mutation_log.md gives the cost of each
  // scope). MUTATE_CONCURRENCY=2 runs two on a machine left to the run.
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 1),
  // A timeout counts as killed; on a loaded machine a passing file can stall for seconds, so the
  // margin stays wide rather than turn stalls into kills.
  timeoutMS: 10_000,
  // Stryker times a mutant as a whole (this factor times the sum of its files' initial times, plus
  // timeoutMS); a survivor runs every file that reaches it, and under load their sum outgrows
  // 1.5 times the initial one (seen: false timeouts at 3 test processes) and even 3 times it (seen:
  // a `catalog` survivor timed out at load 9, and passed every file in 128 s when run again).
  timeoutFactor: 5,
  ignorePatterns: ["dist", "playground", "reports", "test-results", "playwright-report", "bench"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  incremental: process.env.MUTATE_INCREMENTAL === "1",
  incrementalFile: `${out}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json", "mutant-log"],
  // One log per run, named by its start, so that a run of the files another left does not
  // overwrite that one's log.
  mutantLog: { fileName: `${out}/mutants-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl` },
  htmlReporter: { fileName: `${out}/index.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 90, low: 85, break: null },
};
