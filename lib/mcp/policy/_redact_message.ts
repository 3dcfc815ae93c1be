// Private: redaction of structured text from a server or a child process before it can reach an
// error, a diagnostic or a log: any JSON value, the `error` of a JSON-RPC response, the `params`
// of a notification, and an error's cause chain. Every string goes through `redact` (redact.ts),
// the one implementation, so all its encodings (plain, Bearer, URL- and JSON-encoded) apply.

import { redact, REDACTED } from "./redact.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Deeper than this, a value is replaced by the marker rather than walked. */
const MAX_DEPTH = 64;

/**
 * `value` (any JSON value) with every secret removed from its strings and object keys; each
 * string goes through `redact` on its own, so a JSON-encoded string inside a string is caught
 * too. Deeper than 64 levels the rest becomes `[redacted]`. Other values are kept as they are.
 */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a "__proto__" key from JSON.parse stays a plain property.
    Object.defineProperty(out, redact(key, secrets), {
      value: redactValue(item, secrets, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * A JSON-RPC message as received, with the server's text that may surface in an error or a log
 * redacted: an error response's `error.message` and `error.data`, and a notification's `params`
 * (log messages, progress messages). Results and server requests are kept exactly as sent. Works
 * on unvalidated input (only strings and objects are touched).
 */
export function redactMessage<T>(message: T, secrets: readonly string[]): T {
  if (!isObject(message)) return message;
  const error = message.error;
  if (isObject(error)) {
    const next: Record<string, unknown> = { ...error };
    if (typeof error.message === "string") next.message = redact(error.message, secrets);
    if ("data" in error) next.data = redactValue(error.data, secrets);
    return { ...message, error: next } as T;
  }
  if (typeof message.method === "string" && message.id === undefined && "params" in message) {
    return { ...message, params: redactValue(message.params, secrets) } as T;
  }
  return message;
}

/** A snippet of the source text that engines quote in JSON `SyntaxError`s (V8: `"sk-li"...`). */
const QUOTED_SOURCE = /(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)?/g;

/**
 * A copy of `error` and its `cause` chain with secrets removed from every message; a cause that
 * is not an `Error` is redacted as a value. The source snippet a JSON `SyntaxError` quotes is
 * dropped (it may end inside a secret, where redaction cannot see it). A chain deeper than five
 * is cut. Errors that carry no secret are returned unchanged.
 */
export function sanitizeCause(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (depth > 4) return undefined;
  if (!(error instanceof Error)) return redactValue(error, secrets);
  let message = redact(error.message, secrets);
  if (error.name === "SyntaxError") message = message.replace(QUOTED_SOURCE, "…");
  const cause = sanitizeCause(error.cause, secrets, depth + 1);
  if (message === error.message && cause === error.cause) return error;
  const copy = new Error(message, cause === undefined ? undefined : { cause });
  copy.name = error.name;
  return copy;
}
