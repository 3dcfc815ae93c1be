/**
 * Stale temp files: a writer killed between creating its temp file and the rename (kill -9, a
 * power cut) leaves a `.tmp-<24 hex>` file behind. The next write in that folder removes the ones
 * older than {@linkcode STALE_TEMP_MS}, and so does the first use of a storage root in a process
 * (in the background, for the root folder): a live write never takes that long, so a concurrent
 * writer's temp file (another process, another host on a shared folder) is never touched.
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";

const { fs: { lstat, readdir, unlink }, path } = nodeBuiltins("The filesystem storage");

/** A temp file older than this (by mtime) is a dead writer's. */
export const STALE_TEMP_MS = 10 * 60_000;

/** Whether `name` is a temp file name of `writeFileAtomic` (`prefix` + 24 hex digits). */
export function isTempName(name: string, prefix: string): boolean {
  return name.startsWith(prefix) && /^[0-9a-f]{24}$/.test(name.slice(prefix.length));
}

/**
 * Remove the stale temp files of `dir` (best effort: errors are ignored). Returns how many were
 * removed. One `readdir` per write: cheap next to the write's own fsync.
 */
export async function sweepStaleTemps(
  dir: string,
  prefix: string,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  try {
    for (const name of await readdir(dir)) {
      if (!isTempName(name, prefix)) continue;
      const file = path.join(dir, name);
      const stats = await lstat(file).catch(() => undefined);
      if (!stats?.isFile() || now - stats.mtimeMs < STALE_TEMP_MS) continue;
      await unlink(file).then(() => removed++, () => {});
    }
  } catch {
    // The folder may be unreadable or gone; the write itself has succeeded.
  }
  return removed;
}

/** Roots swept in this process (bounded: past the cap it starts over, costing one more sweep). */
const swept = new Set<string>();
const MAX_SWEPT = 1_000;

/**
 * Sweep `dir` in the background, once per process: the caller does not wait for it, and it
 * never fails. Returns the sweep when this call started one (tests await it).
 */
export function sweepOnce(dir: string, prefix: string): Promise<number> | undefined {
  if (swept.has(dir)) return undefined;
  if (swept.size >= MAX_SWEPT) swept.clear();
  swept.add(dir);
  return sweepStaleTemps(dir, prefix);
}
