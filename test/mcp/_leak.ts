// Helpers for the credential-leak tests: the secrets, every spelling a server may echo them in,
// and a check that none of them appears anywhere in an error (message, String(e), stack,
// util.inspect, JSON, `data`, `body`, `rpc`, every cause) or in a line of text.
import assert from "node:assert/strict";
import { inspect } from "node:util";

/** An API key with characters that URL- and JSON-encoding change (`/`, `+`, `=`, `"`). */
export const API_KEY = 'sk-live-7Hq/2x+Zk=9"Wp';
/** A custom header value, as secret as the key. */
export const HEADER_SECRET = "hdr-Secret/value+42=";
/** A stdio `env` value. */
export const ENV_SECRET = "env-Secret/token+99=";

/**
 * Each spelling of `secret` a leak may take: plain, URL-encoded (both hex cases), JSON-escaped,
 * and its first 10 characters (what a clip in the middle of the secret would leave).
 */
export function forms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  return [
    ...new Set([
      secret,
      secret.slice(0, 10),
      uri,
      uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      JSON.stringify(secret).slice(1, -1),
    ]),
  ];
}

function check(text: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      const at = text.indexOf(form);
      assert.ok(
        at < 0,
        `${where} leaks ${JSON.stringify(form)}: …${text.slice(Math.max(0, at - 80), at + 80)}…`,
      );
    }
  }
}

/** The texts one error shows: message, String(), stack, inspect, JSON and its own fields. */
function texts(error: Error): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ["message", error.message],
    ["String(e)", String(error)],
    ["stack", error.stack ?? ""],
    ["inspect", inspect(error, { depth: 20 })],
    ["JSON", JSON.stringify(error) ?? ""],
  ];
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key === "stack" || key === "message" || key === "cause") continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    out.push([key, typeof value === "string" ? value : JSON.stringify(value) ?? String(value)]);
  }
  return out;
}

/**
 * Assert that no form of any of `secrets` appears in `value`: an error (with its whole cause
 * chain), a string, or any JSON value (a diagnostic, a log list, a notification).
 */
export function assertNoLeak(value: unknown, secrets: readonly string[], label = "value"): void {
  let current: unknown = value;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    const where = depth === 0 ? label : `${label} (cause ${depth})`;
    if (current instanceof Error) {
      for (const [field, text] of texts(current)) check(text, secrets, `${where} ${field}`);
      current = current.cause;
      continue;
    }
    const text = typeof current === "string"
      ? current
      : `${JSON.stringify(current)} ${inspect(current, { depth: 20 })}`;
    check(text, secrets, where);
    return;
  }
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
    return error;
  }
  assert.fail("expected a rejection");
}
