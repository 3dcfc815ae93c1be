// Private helpers for deadlines and cancellation, shared across layers.

/** A signal that fires on `parent` or after `ms`, and a `dispose` that clears the timer. */
export interface ScopedSignal {
  signal: AbortSignal;
  dispose(): void;
}

const subscribers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Call `fn` once when `signal` aborts; returns an unsubscribe function. Every
 * subscriber of one signal shares a single event listener, so hundreds of
 * concurrent calls under one deadline never trip Node's MaxListeners warning.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  let set = subscribers.get(signal);
  if (set === undefined) {
    const created = new Set<() => void>();
    set = created;
    subscribers.set(signal, created);
    signal.addEventListener("abort", () => {
      subscribers.delete(signal);
      for (const subscriber of created) subscriber();
    }, { once: true });
  }
  set.add(fn);
  return () => set.delete(fn);
}

/** An error named `TimeoutError`, the same shape on every runtime. */
export function timeoutError(message: string): Error {
  const error = new Error(message);
  error.name = "TimeoutError";
  return error;
}

/**
 * Derive a signal that aborts when any of `parents` aborts, or after `ms`
 * milliseconds (with a `TimeoutError` reason) when `ms` is finite. Timers are
 * cleared by `dispose`, so no timer outlives the call it guards.
 */
export function scopedSignal(
  parents: ReadonlyArray<AbortSignal | undefined>,
  ms?: number,
  timeoutMessage = `Timed out after ${ms} ms`,
): ScopedSignal {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      abort(parent.reason);
      break;
    }
    cleanups.push(onAbort(parent, () => abort(parent.reason)));
  }
  if (ms !== undefined && Number.isFinite(ms) && !controller.signal.aborted) {
    const timer = setTimeout(() => abort(timeoutError(timeoutMessage)), Math.max(0, ms));
    cleanups.push(() => clearTimeout(timer));
  }
  return {
    signal: controller.signal,
    dispose() {
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

/**
 * Settle with `promise`, or reject with `signal.reason` as soon as `signal`
 * aborts, even when the work behind `promise` ignores the signal.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = onAbort(signal, () => {
      promise.catch(() => {});
      reject(signal.reason);
    });
    promise.then(
      (value) => {
        unsubscribe();
        resolve(value);
      },
      (error) => {
        unsubscribe();
        reject(error);
      },
    );
  });
}

/** Whether `error` is a timeout reason produced by {@linkcode scopedSignal}. */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}
