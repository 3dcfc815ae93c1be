// Private: when and how long to wait before retrying an idempotent request.

import { onAbort } from "../../_abort.ts";
import { HttpError, NetworkError } from "../protocol/errors.ts";

/** Statuses worth retrying (never 4xx other than 429: they will not change). */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

const retryAfterOf = new WeakMap<HttpError, number>();

/** Remember the `Retry-After` of a response on the error built from it. */
export function attachRetryAfter(error: unknown, response: Response): void {
  if (!(error instanceof HttpError)) return;
  const ms = parseRetryAfter(response.headers.get("retry-after"));
  if (ms !== undefined) retryAfterOf.set(error, ms);
}

/**
 * `Retry-After` in milliseconds: delta seconds or an HTTP date. Returns
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether a failed attempt may be retried (for idempotent requests only). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof HttpError && RETRY_STATUSES.has(error.status);
}

/**
 * The wait before retry number `attempt` (1-based): the server's
 * `Retry-After`, clamped to `maxRetryAfterMs`, or exponential backoff from
 * `baseMs` with equal jitter.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  baseMs: number,
  maxRetryAfterMs: number,
): number {
  const told = error instanceof HttpError ? retryAfterOf.get(error) : undefined;
  if (told !== undefined) return Math.min(told, maxRetryAfterMs);
  const ceiling = Math.min(baseMs * 2 ** (attempt - 1), maxRetryAfterMs);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Wait `ms`, or reject with `signal.reason` as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const unsubscribe = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
    const timer = setTimeout(() => {
      unsubscribe();
      resolve();
    }, ms);
  });
}
