// Private: read-modify-write of one storage key. With `compareAndSet` (memory, unstorage over
// Redis) it is atomic across every writer: on a lost race the change is re-applied to the value
// that won, so concurrent changes to different fields all land. Without it, changes are
// serialised in this process and the last writer wins across processes.
// Changes of one key from one process are serialised either way (fewer lost races).

import { inTurn } from "../../_in_turn.ts";
import type { Storage } from "../../storage/types.ts";
import { ConflictError } from "./errors.ts";

/** What a change returns: the next value (`undefined` deletes) and the caller's result. */
export interface Change<T> {
  next: string | undefined;
  result: T;
}

const ATTEMPTS = 64;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 50)));

/**
 * Apply `change` to the value at `key`. `change` may run more than once (after a lost race) and
 * may throw to abort; a change whose `next` equals the current value writes nothing.
 */
export function swap<T>(
  storage: Storage,
  key: string,
  change: (current: string | undefined) => Promise<Change<T>>,
  what: string,
): Promise<T> {
  return inTurn(storage, key, async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await storage.get(key);
      const { next, result } = await change(current);
      if (next === current) return result;
      if (!storage.compareAndSet) {
        if (next === undefined) await storage.delete(key);
        else await storage.set(key, next);
        return result;
      }
      if (await storage.compareAndSet(key, current, next)) return result;
      await pause(attempt);
    }
    throw new ConflictError(
      `Cannot update ${what}: other writers kept changing it (${ATTEMPTS} tries)`,
    );
  });
}
