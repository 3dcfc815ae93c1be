// Private: one deadline over a whole call (every page of a list, a re-initialisation, MRTR rounds).

import { isTimeoutError, raceSignal, scopedSignal } from "../../_abort.ts";
import { TimeoutError } from "../protocol/errors.ts";

/**
 * Run `fn` under `options.signal` and, when `options.deadlineMs` is set, a deadline that rejects
 * with a `TimeoutError` saying "<what> took longer than its N ms deadline".
 */
export async function withDeadline<T>(
  options: { signal?: AbortSignal; deadlineMs?: number },
  what: string,
  server: string,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (options.deadlineMs === undefined) return await fn(options.signal);
  const message = `${what} took longer than its ${options.deadlineMs} ms deadline`;
  const scope = scopedSignal([options.signal], options.deadlineMs, message);
  try {
    return await raceSignal(fn(scope.signal), scope.signal);
  } catch (error) {
    if (scope.signal.aborted && isTimeoutError(scope.signal.reason) && !options.signal?.aborted) {
      throw new TimeoutError(message, { server, cause: error });
    }
    throw error;
  } finally {
    scope.dispose();
  }
}
