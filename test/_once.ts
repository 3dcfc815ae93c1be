// Test helper: a check whose subject is not the runtime the test runs on but programs it starts
// (the built-in skills' options against installed programs' help, the docs' blocks under
// `deno check`, a JSR user's script under `deno run`, `npm start`) runs once, under Deno, and is
// skipped under Node with this reason. The README's test command runs both suites, so the check
// still runs once per `npm test`; Node's suite, which decides when the browser tests can start,
// is spared the time.

/** `false` under Deno; under Node, the skip reason for a check that runs once, under Deno. */
export const ONCE_UNDER_DENO: string | false = "Deno" in globalThis
  ? false
  : "runs once, under Deno: its subject is a program it starts, not this runtime";
