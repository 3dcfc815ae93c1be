/**
 * The recursive folder walk behind the fs adapter's `keys()`: decodes names back to keys, skips
 * hidden entries and names that are not encodings, follows symlinks only while they stay inside
 * the real root, and never loops.
 *
 * @module
 */

import type { Dirent } from "node:fs";
import { nodeBuiltins } from "../_node.ts";
import { childKey } from "./_fs_names.ts";
import { code, isInside, message } from "./_fs_resolve.ts";
import { MAX_KEY_LENGTH } from "./_key_rules.ts";
import { StorageError } from "./errors.ts";

const { fs: { readdir, realpath, stat }, path } = nodeBuiltins("The filesystem storage");

/** Where and what to walk. */
export interface WalkOptions {
  /** The real root folder (for containment of symlinks). */
  realRoot: string;
  /** Only keys starting with this are returned. */
  prefix: string;
  /** Checked once per folder. */
  signal?: AbortSignal;
}

/** Every key below the real folder `dir` (which holds key `dirKey`, `""` for the root). */
export async function walkKeys(
  dir: string,
  dirKey: string,
  options: WalkOptions,
): Promise<string[]> {
  const found: string[] = [];
  await walk(dir, dirKey, options, [dir], found);
  return found.sort();
}

async function walk(
  dir: string,
  dirKey: string,
  options: WalkOptions,
  stack: string[],
  found: string[],
): Promise<void> {
  options.signal?.throwIfAborted();
  for (const entry of await list(dir)) {
    const key = childKey(dirKey, entry.name);
    if (key === undefined) continue;
    let full = path.join(dir, entry.name);
    let isFile = entry.isFile();
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      const real = await realpath(full).catch(() => undefined);
      if (real === undefined || !isInside(options.realRoot, real)) continue;
      const stats = await stat(real).catch(() => undefined);
      full = real;
      isFile = stats?.isFile() ?? false;
      isDir = stats?.isDirectory() ?? false;
    }
    if (isFile && key.startsWith(options.prefix)) found.push(key);
    if (isDir && !stack.includes(full) && mayHoldMatches(key, options.prefix)) {
      await walk(full, key, options, [...stack, full], found);
    }
  }
}

/** Whether keys below folder key `key` can start with `prefix` (and can still be valid). */
function mayHoldMatches(key: string, prefix: string): boolean {
  const folder = `${key}/`;
  return folder.length < MAX_KEY_LENGTH &&
    (folder.startsWith(prefix) || prefix.startsWith(folder));
}

async function list(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (cause) {
    if (code(cause) === "ENOENT" || code(cause) === "ENOTDIR") return [];
    throw new StorageError(`Cannot list storage folder ${dir}: ${message(cause)}`, { cause });
  }
}
