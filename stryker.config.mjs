// Mutation testing (StrykerJS) of the security-critical folders; run through `npm run mutate`
// (scripts/mutate.ts), one scope at a time: MUTATE_SCOPE=policy|server|storage picks the files to
// mutate and the only test files run against them (Node's test runner, TAP, through tsx).
// Not part of `npm test`: it is slow. Reports go to reports/mutation/<scope>/ (not committed).

/** Each scope: the files mutated and the test files that hold them. */
export const scopes = {
  policy: {
    mutate: ["lib/mcp/policy/**/*.ts", "!lib/mcp/policy/mod.ts"],
    tests: ["test/mcp/policy_*.test.ts"],
  },
  server: {
    mutate: ["lib/server/_http.ts", "lib/server/serve.ts"],
    tests: [
      "test/server/security.test.ts",
      "test/server/serve.test.ts",
      "test/server/request_*.test.ts",
    ],
  },
  storage: {
    mutate: [
      "lib/storage/_fs_resolve.ts",
      "lib/storage/_fs_write.ts",
      "lib/storage/_fs_names.ts",
      "lib/storage/_key_rules.ts",
    ],
    tests: [
      "test/storage/fs*.test.ts",
      "test/storage/key.test.ts",
      "test/storage/containment_*.test.ts",
    ],
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
  testRunner: "tap",
  tap: {
    testFiles: tests,
    nodeArgs: ["--import", "tsx", "--test-reporter=tap"],
    forceBail: true,
  },
  plugins: ["@stryker-mutator/tap-runner"],
  mutate,
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 10_000,
  ignorePatterns: ["dist", "playground", "reports", "test-results", "playwright-report", "bench"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  incremental: process.env.MUTATE_INCREMENTAL === "1",
  incrementalFile: `${out}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${out}/index.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 90, low: 85, break: null },
};
