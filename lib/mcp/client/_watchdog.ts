// Private: the timer of a long call (`tools/call`, or any request that asks for progress). It
// fires when the server has been silent for `idleMs` (no answer, no progress) or when the call
// has run `maxMs` in total; progress resets the idle timer, and while a host handler runs
// (elicitation, sampling, roots) both timers stand still — a person answering a form is not the
// server being slow. One `CallClock` per connection holds the handlers and the calls.

import { TimeoutError } from "../protocol/errors.ts";

/** The limits of one watched call. */
export interface WatchLimits {
  /** Most silence (no answer, no progress), in milliseconds. */
  idleMs: number;
  /** Most time in all, handler time excluded, in milliseconds. */
  maxMs: number;
  /** What is running, for the message (`everything: tools/call "slow"`). */
  what: string;
  server: string;
}

/** The timer of one call: `signal` aborts with a `TimeoutError`. */
export class Watchdog {
  readonly #controller = new AbortController();
  readonly #limits: WatchLimits;
  readonly #clock: CallClock;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #max: ReturnType<typeof setTimeout> | undefined;
  #spent = 0;
  #since = 0;
  #running = false;

  constructor(clock: CallClock, limits: WatchLimits, paused: boolean) {
    this.#clock = clock;
    this.#limits = limits;
    if (!paused) this.resume();
  }

  /** Aborts with a `TimeoutError` when a limit is reached. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The server showed life (progress): the idle timer starts again. */
  kick(): void {
    if (!this.#running || this.signal.aborted) return;
    clearTimeout(this.#idle);
    this.#idle = this.#arm(this.#limits.idleMs, "idle");
  }

  /** Stop both timers (a host handler runs). */
  pause(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#spent += Date.now() - this.#since;
    this.#clear();
  }

  /** Start the timers again: a fresh idle period, the rest of the total. */
  resume(): void {
    if (this.#running || this.signal.aborted) return;
    this.#running = true;
    this.#since = Date.now();
    this.#idle = this.#arm(this.#limits.idleMs, "idle");
    this.#max = this.#arm(this.#limits.maxMs - this.#spent, "max");
  }

  /** The call ended: clear the timers and forget the call. */
  dispose(): void {
    this.#running = false;
    this.#clear();
    this.#clock.forget(this);
  }

  #clear(): void {
    clearTimeout(this.#idle);
    clearTimeout(this.#max);
    this.#idle = this.#max = undefined;
  }

  #arm(ms: number, kind: "idle" | "max"): ReturnType<typeof setTimeout> | undefined {
    if (!Number.isFinite(ms)) return undefined;
    return setTimeout(() => this.#fire(kind), Math.max(0, ms));
  }

  #fire(kind: "idle" | "max"): void {
    const { idleMs, maxMs, what, server } = this.#limits;
    const message = kind === "idle"
      ? `${what} timed out: no answer and no progress for ${idleMs} ms`
      : `${what} timed out: it ran longer than its ${maxMs} ms maximum`;
    this.#clear();
    this.#running = false;
    this.#controller.abort(new TimeoutError(message, { server }));
  }
}

/** The calls and host handlers of one connection. */
export class CallClock {
  readonly #dogs = new Set<Watchdog>();
  #held = 0;

  /** Watch a new call (paused at once when a handler is running). */
  watch(limits: WatchLimits): Watchdog {
    const dog = new Watchdog(this, limits, this.#held > 0);
    this.#dogs.add(dog);
    return dog;
  }

  /** Run a host handler with every call's timers stopped. */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#held++ === 0) { for (const dog of this.#dogs) dog.pause(); }
    try {
      return await fn();
    } finally {
      if (--this.#held === 0) { for (const dog of this.#dogs) dog.resume(); }
    }
  }

  /** Drop a finished call. */
  forget(dog: Watchdog): void {
    this.#dogs.delete(dog);
  }
}
