/**
 * Read the community folder's lock file.
 *
 * @module
 */

import { readLock } from "./lock_file.ts";
import type { LockEntry } from "./types.ts";

/**
 * What the installer recorded in `<communityDir>/skillmux-lock.json`: one
 * entry per installed skill (name, source, version, sha256, files), sorted by name.
 *
 * @param communityDir The community skills folder.
 * @returns The entries; empty when there is no lock file.
 * @throws {InstallError} `config` when the lock file is not valid.
 *
 * @example
 * ```ts
 * import { readLockFile } from "@skillmux/core/install";
 * for (const entry of await readLockFile("/tmp/skillmux-community")) {
 *   console.log(entry.name, entry.version, entry.source);
 * }
 * ```
 */
export async function readLockFile(communityDir: string): Promise<LockEntry[]> {
  const { skills } = await readLock(communityDir);
  return Object.keys(skills).sort().map((name) => skills[name]);
}
