// Private: a per-transport circuit breaker. After `threshold` consecutive
// failures calls fail fast with `CircuitOpenError` for `cooldownMs`; then one
// half-open probe decides whether it closes again.

import {
  CircuitOpenError,
  HttpError,
  NetworkError,
  StreamEndedError,
  TimeoutError,
} from "../protocol/errors.ts";

/** What an outcome means to the breaker. */
export type Outcome = "success" | "failure" | "neutral";

/** Classify a settled call: server-side trouble is a failure; caller aborts are neutral. */
export function outcomeOf(error: unknown, aborted: boolean): Outcome {
  if (error === undefined) return "success";
  if (aborted) return "neutral";
  if (
    error instanceof NetworkError || error instanceof TimeoutError ||
    error instanceof StreamEndedError
  ) {
    return "failure";
  }
  if (error instanceof HttpError && (error.status >= 500 || error.status === 429)) return "failure";
  return error instanceof CircuitOpenError ? "neutral" : "success";
}

/** The breaker itself. */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;
  readonly #threshold: number;
  readonly #cooldownMs: number;

  constructor(threshold: number, cooldownMs: number) {
    this.#threshold = threshold;
    this.#cooldownMs = cooldownMs;
  }

  /** Admit a call or throw `CircuitOpenError`. Returns whether this call is the half-open probe. */
  enter(server: string): boolean {
    if (this.#openedAt === undefined) return false;
    const waited = Date.now() - this.#openedAt;
    if (waited >= this.#cooldownMs && !this.#probing) {
      this.#probing = true;
      return true;
    }
    throw new CircuitOpenError(
      `${server}: not contacted after ${this.#failures} consecutive failures (circuit open)`,
      Math.max(0, this.#cooldownMs - waited),
      { server },
    );
  }

  /** Record how an admitted call ended. */
  settle(outcome: Outcome, probe: boolean): void {
    if (probe) this.#probing = false;
    if (outcome === "success") {
      this.#failures = 0;
      this.#openedAt = undefined;
    } else if (outcome === "failure") {
      this.#failures++;
      if (probe || this.#failures >= this.#threshold) this.#openedAt = Date.now();
    }
  }
}
