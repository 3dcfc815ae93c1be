/**
 * A tiny isomorphic assert helper for the shared storage conformance cases: no `node:` imports,
 * so the same cases run under Node, Deno and in a browser page.
 *
 * @module
 */

/** Thrown when an assertion fails. */
export class AssertionError extends Error {
  /** @param message What was expected and what happened. */
  constructor(message: string) {
    super(message);
    this.name = "AssertionError";
  }
}

/** Throw unless `condition` is truthy. */
export function assert(condition: unknown, message = "expected a truthy value"): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/** Throw unless `actual` deep-equals `expected` (primitives, arrays, plain objects). */
export function assertEquals<T>(
  actual: unknown,
  expected: T,
  message?: string,
): asserts actual is T {
  if (deepEqual(actual, expected)) return;
  throw new AssertionError(
    `${message ? `${message}: ` : ""}expected ${show(expected)}, got ${show(actual)}`,
  );
}

/**
 * Await `fn()` and throw unless it rejects with an error whose `name` is `errorName` (or, when
 * `errorName` is an object, with exactly that value). Returns the error.
 */
export async function assertRejects(
  fn: () => Promise<unknown>,
  errorName: string | object,
  message?: string,
): Promise<unknown> {
  let result: unknown;
  try {
    result = await fn();
  } catch (error) {
    const ok = typeof errorName === "string"
      ? error instanceof Error && error.name === errorName ||
        (error as { name?: unknown } | null)?.name === errorName
      : error === errorName;
    if (!ok) {
      const got = error instanceof Error ? `${error.name}: ${error.message}` : show(error);
      throw new AssertionError(
        `${message ? `${message}: ` : ""}expected ${name(errorName)}, got ${got}`,
      );
    }
    return error;
  }
  throw new AssertionError(
    `${message ? `${message}: ` : ""}expected a rejection with ${name(errorName)}, resolved with ${
      show(result)
    }`,
  );
}

function name(expected: string | object): string {
  return typeof expected === "string" ? expected : `the given ${show(expected)}`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    Object.hasOwn(b, k) &&
    deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

function show(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string" && value.length > 200) {
    return `${JSON.stringify(value.slice(0, 200))}… (${value.length} chars)`;
  }
  try {
    const text = JSON.stringify(value);
    return text.length > 400 ? `${text.slice(0, 400)}…` : text;
  } catch {
    return String(value);
  }
}
