// Preloaded into every test process (scripts/test.sh): a test that hangs fails instead of
// stalling the run. A test's own `timeout` option wins where the runner lets us see it.
//
// - Node: `node --import tsx --import ./test/_deadline.ts --test …`. `node:test`'s `test` and
//   `it` get `timeout: TEST_DEADLINE_MS`. (Node 20's `--test-timeout` also bounds each whole
//   file, so alone it cannot be per test; the script passes it as the per-file backstop.) A
//   failing test's `location` then names this file; its name and error stack still name the test.
// - Deno: `deno test --preload test/_deadline.ts …`. Deno has no global flag. `node:test` runs
//   a top-level test, and a whole `describe` block, as one `Deno.test`, registered the same way:
//   those get Deno's `timeout: SUITE_DEADLINE_MS` (Deno ≥ 2.9), sized for the longest suite.
//   The tests inside a suite are steps, which take no timeout: each step fails after
//   TEST_DEADLINE_MS (the step's own promise is abandoned; the suite goes on).
import { createRequire, syncBuiltinESMExports } from "node:module";

/** The deadline of one test, in ms (Node: every test; Deno: each test inside a suite). */
export const TEST_DEADLINE_MS = 120_000;

/** Deno: the deadline of one top-level test or one whole suite, in ms. */
export const SUITE_DEADLINE_MS = 600_000;

type Fn = (...args: unknown[]) => unknown;
type Definition = { name?: string; fn?: Fn; timeout?: number };

/** Node: `register` with `{ timeout }` added to its options unless they name one. */
function withTimeoutOption<T extends Fn>(register: T, ms: number): T {
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const at = args.findIndex((a) => typeof a === "object" && a !== null);
    if (at >= 0) {
      const options = args[at] as { timeout?: number };
      if (options.timeout === undefined) args[at] = { ...options, timeout: ms };
    } else {
      const fnAt = args.findIndex((a) => typeof a === "function");
      args.splice(fnAt === -1 ? args.length : fnAt, 0, { timeout: ms });
    }
    return register.apply(this, args);
  };
  return Object.assign(wrapped, register) as unknown as T;
}

/** Deno steps: `fn`, failing with a clear error once `ms` have passed. */
function raced(fn: Fn, ms: number, name: string | undefined): Fn {
  return async function (this: unknown, ...args: unknown[]) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`test ${JSON.stringify(name)} timed out after ${ms} ms`)),
        ms,
      );
    });
    try {
      return await Promise.race([fn.apply(this, args), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Deno: `fn` called with a test context whose steps (and their steps) get the deadline. */
function withSteps(fn: Fn): Fn {
  return function (this: unknown, context: unknown, ...rest: unknown[]) {
    const t = context as { step?: Fn };
    const step = t?.step;
    if (typeof step === "function") {
      t.step = function (this: unknown, ...args: unknown[]) {
        const definition = args[0] as Definition;
        if (args.length === 1 && typeof definition === "object" && definition.fn) {
          const body = withSteps(definition.fn);
          args[0] = { ...definition, fn: raced(body, TEST_DEADLINE_MS, definition.name) };
        }
        return step.apply(this, args);
      };
    }
    return fn.call(this, context, ...rest);
  };
}

const deno = (globalThis as { Deno?: { test: Fn } }).Deno;
if (deno !== undefined) {
  const test = deno.test;
  // node:test registers with `Deno.test(definition)`; other forms are left as they are.
  deno.test = Object.assign(function (this: unknown, ...args: unknown[]) {
    const definition = args[0] as Definition;
    if (args.length === 1 && typeof definition === "object" && definition.fn) {
      args[0] = {
        timeout: SUITE_DEADLINE_MS,
        ...definition,
        fn: withSteps(definition.fn),
      };
    }
    return test.apply(this, args);
  }, test);
} else {
  const nodeTest = createRequire(import.meta.url)("node:test") as Record<string, Fn>;
  for (const name of ["test", "it"]) {
    nodeTest[name] = withTimeoutOption(nodeTest[name], TEST_DEADLINE_MS);
  }
  syncBuiltinESMExports(); // `import { test } from "node:test"` now sees the wrapped ones
}
