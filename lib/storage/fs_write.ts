/**
 * Atomic file replacement for the fs adapter: write a hidden temp file in the same folder
 * (opened `wx` with the final mode), set the mode on the open file, `sync()`, close, `rename`
 * over the target, then best-effort fsync the folder. On any failure the temp file is removed,
 * so the old value stays intact; temp files that a killed writer left behind are swept from the
 * folder by a later write (`_fs_stale.ts`).
 *
 * @module
 */

import type { FileHandle } from "node:fs/promises";
import { nodeBuiltins } from "../_node.ts";
import { sweepStaleTemps } from "./_fs_stale.ts";

const { fs: { open, rename, unlink }, path } = nodeBuiltins("The filesystem storage");

/**
 * Prefix of temp file names; starts with `.` so `keys()` never lists them.
 *
 * @example
 * ```ts
 * import { TEMP_PREFIX } from "./fs_write.ts";
 * console.log(TEMP_PREFIX); // ".tmp-"
 * ```
 */
export const TEMP_PREFIX = ".tmp-";

/**
 * Replace `target` with `value` (UTF-8) atomically, the file ending up with `mode` whether it
 * existed before or not. `signal` is checked once more before the rename.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./fs_write.ts";
 * await writeFileAtomic("./data/config.toml", "[skills]\nbuiltin = true\n", 0o600);
 * ```
 */
export async function writeFileAtomic(
  target: string,
  value: string,
  mode: number,
  signal?: AbortSignal,
): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `${TEMP_PREFIX}${randomId()}`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, "wx", mode);
    await handle.writeFile(value, "utf8");
    // Set the mode on the open file (umask may have narrowed it, and it must be right before the
    // file becomes visible): rename then replaces an old 0644 file with this 0600 one.
    await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    handle = undefined;
    signal?.throwIfAborted();
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await syncDir(dir);
  await sweepStaleTemps(dir, TEMP_PREFIX);
}

/** Best-effort fsync of a folder so the rename itself is durable (not possible everywhere). */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Windows cannot open folders; some file systems refuse fsync on them. Durability of the
    // rename is then up to the OS.
  } finally {
    await handle?.close().catch(() => {});
  }
}

function randomId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
