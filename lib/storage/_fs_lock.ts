/**
 * A per-key lock for the fs adapter's `compareAndSet`, held by every process that shares the
 * folder: a hidden `.lock-<entry>` file beside the key's file, created with `O_EXCL` (exactly
 * one creator wins, on every local file system and NFSv3+), removed when the holder is done.
 * Within one process, holders of the same lock queue in memory first, so they do not poll each
 * other. A holder keeps it for one read and one atomic write; a lock file older than
 * {@linkcode STALE_LOCK_MS} is a dead holder's (killed between create and remove) and is broken.
 *
 * @module
 */

import { inTurn } from "../_in_turn.ts";
import { nodeBuiltins } from "../_node.ts";
import { StorageError } from "./errors.ts";

const { fs: { lstat, open, unlink } } = nodeBuiltins("The filesystem storage");

/** Prefix of lock file names; starts with `.` so `keys()` never lists them. */
export const LOCK_PREFIX = ".lock-";

/** A lock file older than this (by mtime) belongs to a holder that died. */
export const STALE_LOCK_MS = 10_000;

/** How long a caller waits for a live holder before giving up with a `StorageError`. */
const WAIT_MS = 3 * STALE_LOCK_MS;

/** The owner of this module's in-process queues (one per lock path). */
const LOCKS = {};

/** Run `fn` holding the lock file `lock` (its folder must exist). */
export function withFileLock<T>(
  lock: string,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return inTurn(LOCKS, lock, () => holding(lock, fn, signal));
}

async function holding<T>(lock: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0;; attempt++) {
    signal?.throwIfAborted();
    try {
      await (await open(lock, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as { code?: string })?.code !== "EEXIST") throw error;
    }
    const stats = await lstat(lock).catch(() => undefined);
    if (stats !== undefined && Date.now() - stats.mtimeMs > STALE_LOCK_MS) {
      await unlink(lock).catch(() => {});
      continue;
    }
    if (Date.now() > deadline) {
      throw new StorageError(
        `Cannot lock ${lock}: another writer has held it for more than ${WAIT_MS / 1000} s`,
        { code: "locked" },
      );
    }
    const pause = Math.min(2 ** attempt, 50) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => {});
  }
}
