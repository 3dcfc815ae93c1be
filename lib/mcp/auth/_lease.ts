// Private: one holder at a time for a resource's refresh, across every session of this process
// and, through the storage's compareAndSet, every process sharing the storage (fs, IndexedDB
// tabs, Redis). A lease is a storage key holding `{ owner, until }`, taken with a compare-and-set
// from absent (or from a lease whose time is up: a holder that died) and given back the same way.
// Within one process, holders of the same key queue in memory first and never poll each other.

import { inTurn } from "../../_in_turn.ts";
import type { Storage } from "../../storage/types.ts";

/** How long a lease holds unless given back: past the 30 s timeout of a token request. */
export const LEASE_MS = 45_000;

const POLL_MS = 25;

/**
 * Run `fn` holding the lease at `key` of `storage` (queued in this process first). Without
 * `compareAndSet` the storage cannot arbitrate between processes: `fn` runs in this process's
 * turn only.
 */
export function withLease<T>(
  storage: Storage,
  key: string,
  fn: () => Promise<T>,
  leaseMs = LEASE_MS,
): Promise<T> {
  return inTurn(storage, key, async () => {
    const cas = storage.compareAndSet?.bind(storage);
    if (cas === undefined) return await fn();
    const owner = crypto.randomUUID();
    let mine: string;
    for (let attempt = 0;; attempt++) {
      mine = JSON.stringify({ owner, until: Date.now() + leaseMs });
      if (await cas(key, undefined, mine)) break;
      const current = await storage.get(key);
      if (current !== undefined && expired(current) && await cas(key, current, mine)) break;
      const pause = POLL_MS * (0.5 + Math.random()) * Math.min(1 + attempt / 8, 4);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    try {
      return await fn();
    } finally {
      await cas(key, mine!, undefined).catch(() => false);
    }
  });
}

/** Whether the lease `value` is past its time (or not a lease at all). */
function expired(value: string): boolean {
  try {
    const until = (JSON.parse(value) as { until?: unknown })?.until;
    return typeof until !== "number" || until < Date.now();
  } catch {
    return true;
  }
}
