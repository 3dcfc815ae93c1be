/**
 * Containment of the fs adapter: map a key to a path under the root, never outside it. The
 * lexical path is checked with `path.relative` (never `startsWith`, which accepts `<root>_evil`),
 * then every component is `lstat`ed from the real root down: a symlink is followed only when its
 * real path stays inside the real root; a dangling one is refused.
 *
 * @module
 */

import type { Stats } from "node:fs";
import { nodeBuiltins } from "../_node.ts";
import { deniedMessage } from "../_permission.ts";
import { StorageError, StoragePathError } from "./errors.ts";

const { fs: { chmod, lstat, mkdir, realpath, stat }, path } = nodeBuiltins(
  "The filesystem storage",
);

/** Where a key lives on disk, with every symlink on the way checked and resolved. */
export interface ResolvedKey {
  /** The real root folder. */
  realRoot: string;
  /** The real folder holding the entry (symlinks resolved). */
  parent: string;
  /** The entry's name in `parent` (possibly a symlink). */
  entry: string;
  /** The real path of the entry (the link target when `entry` is a symlink). */
  real: string;
  /** `stat` of `real`, or `undefined` when nothing is there. */
  stats: Stats | undefined;
  /** Whether `entry` is a symlink. */
  link: boolean;
  /** Whether any parent folder on the way was a symlink. */
  viaLink: boolean;
}

/** How {@linkcode resolveKey} treats missing folders. */
export interface PathOptions {
  /** Create missing folders (and the root) with this mode; otherwise report "missing". */
  createDirs?: number;
}

/** Whether `target` is `root` itself or inside it. */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return !path.isAbsolute(relative) && relative !== ".." &&
    !relative.startsWith(`..${path.sep}`);
}

/**
 * Resolve `names` (already encoded) under `root`. Returns `undefined` when a folder on the way
 * is missing (or is a file) and `createDirs` is not set.
 */
export async function resolveKey(
  root: string,
  names: readonly string[],
  key: string,
  options: PathOptions = {},
): Promise<ResolvedKey | undefined> {
  const lexical = path.join(root, ...names);
  const relative = path.relative(root, lexical);
  if (relative === "" || !isInside(root, lexical)) {
    throw new StoragePathError(
      `Cannot map storage key "${key}" to ${lexical}: it is outside the storage root ${root}`,
      lexical,
      { key },
    );
  }
  const realRoot = await findRealRoot(root, key, options.createDirs);
  if (realRoot === undefined) return undefined;
  let current = realRoot;
  let viaLink = false;
  for (let i = 0; i < names.length; i++) {
    const candidate = path.join(current, names[i]);
    const last = i === names.length - 1;
    let found = await lstatOrUndefined(candidate, key);
    if (found === undefined && !last) {
      if (options.createDirs === undefined) return undefined;
      await makeDir(candidate, options.createDirs, key);
      found = await lstatOrUndefined(candidate, key);
      if (found === undefined) return undefined;
    }
    const link = found?.isSymbolicLink() ?? false;
    const real = link ? await followLink(candidate, realRoot, key) : candidate;
    const stats = link ? await stat(real) : found;
    if (last) {
      return { realRoot, parent: current, entry: names[i], real, stats, link, viaLink };
    }
    if (!stats?.isDirectory()) {
      if (options.createDirs === undefined) return undefined;
      throw new StorageError(
        `Cannot write storage key "${key}": ${candidate} is a file, not a folder`,
        { key, code: "conflict" },
      );
    }
    viaLink ||= link;
    current = real;
  }
  throw new Error("unreachable: a key has at least one segment");
}

/** The real path a symlink leads to, refused when dangling or outside `realRoot`. */
export async function followLink(link: string, realRoot: string, key: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(link);
  } catch (cause) {
    throw new StoragePathError(
      `Cannot use storage key "${key}": ${link} is a dangling or looping symlink`,
      link,
      { key, cause },
    );
  }
  if (!isInside(realRoot, real)) {
    throw new StoragePathError(
      `Cannot use storage key "${key}": ${link} is a symlink to ${real}, outside the storage root ${realRoot}`,
      link,
      { key, cause: new Error(`symlink target ${real} is outside ${realRoot}`) },
    );
  }
  return real;
}

async function findRealRoot(
  root: string,
  key: string,
  createDirs: number | undefined,
): Promise<string | undefined> {
  try {
    return await realpath(root);
  } catch (cause) {
    if (code(cause) !== "ENOENT") {
      throw new StorageError(
        `Cannot open storage root ${root} for key "${key}": ${message(cause)}`,
        {
          key,
          cause,
        },
      );
    }
  }
  if (createDirs === undefined) return undefined;
  await makeDir(root, createDirs, key, true);
  return await realpath(root);
}

async function makeDir(dir: string, mode: number, key: string, recursive = false): Promise<void> {
  try {
    await mkdir(dir, { mode, recursive });
    await chmod(dir, mode);
  } catch (cause) {
    if (code(cause) === "EEXIST") return;
    throw new StorageError(
      `Cannot write storage key "${key}": cannot create folder ${dir}: ${message(cause)}`,
      { key, cause },
    );
  }
}

async function lstatOrUndefined(file: string, key: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (cause) {
    if (code(cause) === "ENOENT" || code(cause) === "ENOTDIR") return undefined;
    throw new StorageError(
      `Cannot use storage key "${key}": cannot stat ${file}: ${message(cause)}`,
      {
        key,
        cause,
      },
    );
  }
}

/** The `code` of a Node-style system error, if any. */
export function code(error: unknown): string | undefined {
  const value = (error as { code?: unknown } | null)?.code;
  return typeof value === "string" ? value : undefined;
}

/** The message of an error, or its string form; a permission refusal names the flag to add. */
export function message(error: unknown): string {
  return deniedMessage(error);
}
