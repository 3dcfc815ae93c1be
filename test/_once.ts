// Test helper: a check whose subject is not the runtime the test runs on (the built-in skills'
// options against installed programs' help, the docs' code blocks under `deno check`) runs once,
// under Deno, and is skipped under Node with this reason. The README's test command runs both
// suites, so the check still runs once per `npm test`; Node's suite, the longer of the two, is
// spared the time.

/** `false` under Deno; under Node, the skip reason for a check that runs once, under Deno. */
export const ONCE_UNDER_DENO: string | false = "Deno" in globalThis
  ? false
  : "runs once, under Deno: it checks files with programs outside this runtime";
