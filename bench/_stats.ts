// Private: timing helpers for the benchmarks (figures, not assertions).

/** Time `fn` `runs` times after `warmup` runs; returns per-run milliseconds, sorted. */
export async function sample(
  runs: number,
  fn: (i: number) => Promise<unknown>,
  warmup = 20,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** The `q` quantile (0..1) of sorted `times`. */
export function quantile(times: readonly number[], q: number): number {
  return times[Math.min(times.length - 1, Math.floor(q * times.length))];
}

/** `123.4 µs` style formatting of milliseconds. */
export function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

/** The runtime this benchmark runs on, for the printout. */
export function runtime(): string {
  const g = globalThis as { Deno?: { version: { deno: string } }; process?: { version: string } };
  return g.Deno ? `Deno ${g.Deno.version.deno}` : `Node ${g.process?.version}`;
}
