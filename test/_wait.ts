// Waiting in tests without hanging and without guessing: `within` gives an await on an event
// that may never come its own deadline; `waitUntil` polls a condition until it holds, or fails.

/**
 * `promise`, or a rejection naming `what` once `ms` have passed (the timer is cleared either way).
 *
 *   const code = await within(exited, 10_000, "the child's exit");
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Poll `check` every 10 ms until it is true; reject after `ms`. */
export async function waitUntil(check: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("waitUntil: condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
