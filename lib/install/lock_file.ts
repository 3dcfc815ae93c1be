/**
 * The lock file of the community folder, `skillmux-lock.json`: what the installer put
 * there, from where, at which version and digest. Written atomically.
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";
import { writeFileAtomic } from "../storage/fs_write.ts";
import { InstallError } from "./errors.ts";
import type { LockEntry } from "./types.ts";

/**
 * The lock file's name inside the community folder (not a skill layout, so never listed).
 *
 * @example
 * ```ts
 * import { LOCK_FILE } from "./lock_file.ts";
 * console.log(LOCK_FILE); // "skillmux-lock.json"
 * ```
 */
export const LOCK_FILE = "skillmux-lock.json";

/** The lock file's content. */
export interface Lock {
  version: 1;
  skills: Record<string, LockEntry>;
}

function lockPath(dir: string): string {
  return nodeBuiltins("The skill installer").path.join(dir, LOCK_FILE);
}

/**
 * Read the lock of `dir`; an absent file is an empty lock.
 *
 * @example
 * ```ts
 * import { readLock } from "./lock_file.ts";
 * console.log(Object.keys((await readLock("./community")).skills));
 * ```
 */
export async function readLock(dir: string): Promise<Lock> {
  const { fs } = nodeBuiltins("The skill installer");
  const path = lockPath(dir);
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return { version: 1, skills: {} };
    throw error;
  }
  try {
    const lock = JSON.parse(text) as Lock;
    if (lock?.version !== 1 || typeof lock.skills !== "object" || lock.skills === null) {
      throw new TypeError('expected { "version": 1, "skills": { … } }');
    }
    const skills: Record<string, LockEntry> = Object.create(null);
    for (const [name, entry] of Object.entries(lock.skills)) skills[name] = entry;
    return { version: 1, skills };
  } catch (error) {
    throw new InstallError(
      "config",
      `The lock file ${path} is not valid: ${(error as Error).message}; fix it or delete it`,
      { cause: error },
    );
  }
}

/**
 * Replace the lock of `dir` atomically.
 *
 * @example
 * ```ts
 * import { readLock, writeLock } from "./lock_file.ts";
 * const lock = await readLock("./community");
 * delete lock.skills.pdf;
 * await writeLock("./community", lock);
 * ```
 */
export async function writeLock(dir: string, lock: Lock): Promise<void> {
  const sorted = Object.fromEntries(
    Object.keys(lock.skills).sort().map((k) => [k, lock.skills[k]]),
  );
  const text = `${JSON.stringify({ version: 1, skills: sorted }, null, 2)}\n`;
  await writeFileAtomic(lockPath(dir), text, 0o644);
}
