/**
 * The filesystem storage adapter for Deno and Node: one file per key under a root folder.
 *
 * @example
 * ```ts
 * import { createFsStorage } from "@skillmux/core/fs";
 * const store = createFsStorage({ root: "./skills-data" });
 * await store.set("skills/samtools.md", "# samtools");
 * console.log(await store.keys("skills/")); // ["skills/samtools.md"]
 * ```
 *
 * @module
 */

// Long because: one Storage implementation: every method of the interface with its path checks,
// locks and atomic writes; the helpers it can share already live in `_fs_*.ts`.

import { nodeBuiltins } from "../_node.ts";
import { StorageGuard } from "./_guard.ts";
import { fileNameProblem, isWellFormed, keyToNames } from "./_fs_names.ts";
import { code, message, type ResolvedKey, resolveKey } from "./_fs_resolve.ts";
import { walkKeys } from "./_fs_walk.ts";
import { TEMP_PREFIX, writeFileAtomic } from "./fs_write.ts";
import { LOCK_PREFIX, withFileLock } from "./_fs_lock.ts";
import { sweepOnce } from "./_fs_stale.ts";
import { InvalidStorageKeyError, isValidStorageKey } from "./key.ts";
import { StorageError, StoragePathError } from "./errors.ts";
import type { Storage, StorageCallOptions, StorageVersion } from "./types.ts";

const { fs: { constants, lstat, open, realpath, rmdir, stat, unlink }, path } = nodeBuiltins(
  "The filesystem storage",
);

export { isStoragePathError, StoragePathError } from "./errors.ts";

/** Options of {@linkcode createFsStorage}. */
export interface FsStorageOptions {
  /** The folder that holds the files; created on the first write. Relative to the cwd. */
  root: string;
  /** Create files 0600 and folders 0700 (for secrets) instead of 0644 and 0755. */
  private?: boolean;
}

/**
 * Create a storage that keeps each key in a file under `root`: key `a/b.md` is file `b.md` in
 * folder `a`, so a Markdown file dropped into the folder is a key. In a segment, only `%`,
 * `:*?"<>|`, a leading `.` and a trailing `.` or space are percent-encoded (`%3A`); names that
 * start with `.` (temp files, `.git`, `.DS_Store`) and names that are not such encodings are not
 * keys.
 *
 * Writes are atomic (temp file, `sync`, `rename`); with `private: true` files end up 0600 and
 * new folders 0700, also when the file existed with another mode (POSIX only: Windows ignores
 * modes). Temp files a killed writer left (`.tmp-…`, older than 10 minutes) are removed by the next
 * write in their folder and, for the root folder, in the background on its first use in a
 * process. Paths never leave the root: symlinks are followed only while their real path stays
 * inside the real root, others (and dangling ones) are refused with {@linkcode StoragePathError}
 * and skipped by `keys()` (checks run per call: do not share the root with an adversary who can
 * swap folders for symlinks while a call runs). A key cannot be both a file and a folder (`a` and
 * `a/b`); case-insensitive file systems fold keys that differ only in case; Windows device names
 * (`CON`, `NUL`, ...) are not encoded.
 *
 * @example Keep API keys readable by the owner only
 * ```ts
 * import { homedir } from "node:os";
 * import { join } from "node:path";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const secrets = createFsStorage({ root: join(homedir(), ".skillmux"), private: true });
 * await secrets.set("servers/docs.json", JSON.stringify({ apiKey: "sk-..." }));
 * ```
 */
export function createFsStorage(options: FsStorageOptions): Storage {
  if (typeof options?.root !== "string" || options.root === "") {
    throw new TypeError("Cannot create fs storage: root must be a non-empty path");
  }
  return new FsStorage(path.resolve(options.root), options.private === true);
}

class FsStorage implements Storage {
  #root: string;
  #fileMode: number;
  #dirMode: number;
  #guard = new StorageGuard("fs");

  constructor(root: string, privateMode: boolean) {
    this.#root = root;
    this.#fileMode = privateMode ? 0o600 : 0o644;
    this.#dirMode = privateMode ? 0o700 : 0o755;
  }

  async get(key: string, options?: StorageCallOptions): Promise<string | undefined> {
    this.#guard.key(key, options?.signal);
    const names = this.#names(key);
    const found = await this.#io("read", key, names, () => resolveKey(this.#root, names, key));
    if (found?.stats === undefined || found.stats.isDirectory()) return undefined;
    this.#assertFile(found, key);
    return await this.#io("read", key, found.real, async () => {
      const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
      const handle = await open(found.real, flags).catch((error) => {
        if (code(error) === "ENOENT") return undefined;
        throw error;
      });
      if (handle === undefined) return undefined;
      try {
        return await handle.readFile("utf8");
      } finally {
        await handle.close();
      }
    });
  }

  async set(key: string, value: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.set(key, value, options?.signal);
    const names = this.#names(key);
    assertWellFormed(key, value);
    // A concurrent delete may prune a folder we just created: try again a few times.
    for (let attempt = 1;; attempt++) {
      const found = await this.#io(
        "write",
        key,
        names,
        () => resolveKey(this.#root, names, key, { createDirs: this.#dirMode }),
      );
      if (found === undefined) {
        if (attempt < 3) continue;
        throw new StorageError(`Cannot write storage key "${key}": its folder keeps vanishing`, {
          key,
          code: "conflict",
        });
      }
      if (found.stats?.isDirectory()) {
        throw new StorageError(
          `Cannot write storage key "${key}" to ${found.real}: it is a folder holding other keys`,
          { key, code: "conflict" },
        );
      }
      if (found.stats !== undefined) this.#assertFile(found, key);
      try {
        await writeFileAtomic(found.real, value, this.#fileMode, options?.signal);
        return;
      } catch (error) {
        if (code(error) === "ENOENT" && attempt < 3) continue;
        if (options?.signal?.aborted && error === options.signal.reason) throw error;
        throw wrap("write", key, found.real, error);
      }
    }
  }

  async delete(key: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.key(key, options?.signal);
    const names = this.#names(key);
    const found = await this.#io("delete", key, names, () => resolveKey(this.#root, names, key));
    if (found?.stats === undefined && !found?.link) return;
    if (!found.link && found.stats?.isDirectory()) return;
    const file = path.join(found.parent, found.entry);
    await this.#io("delete", key, file, async () => {
      await unlink(file).catch((error) => {
        if (code(error) !== "ENOENT") throw error;
      });
      if (!found.viaLink) await pruneEmptyFolders(found.realRoot, names);
    });
  }

  /**
   * Atomic against every other `compareAndSet` of the key, in any process sharing the folder:
   * the read and the write happen under the key's lock file (`_fs_lock.ts`). A plain `set` or
   * `delete` does not take the lock: use `compareAndSet` for every write of a key that several
   * writers change.
   */
  async compareAndSet(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    options?: StorageCallOptions,
  ): Promise<boolean> {
    this.#guard.swap(key, value, options?.signal);
    const names = this.#names(key);
    if (value !== undefined) assertWellFormed(key, value);
    // The lock lives beside the key's file: a write creates the folder, a delete needs none.
    const create = value === undefined ? {} : { createDirs: this.#dirMode };
    const found = await this.#io(
      "write",
      key,
      names,
      () => resolveKey(this.#root, names, key, create),
    );
    if (found === undefined) return expected === undefined;
    const lock = path.join(found.parent, `${LOCK_PREFIX}${found.entry}`);
    return await this.#io("write", key, lock, () =>
      withFileLock(lock, async () => {
        if ((await this.get(key, options)) !== expected) return false;
        if (value === undefined) await this.delete(key, options);
        else await this.set(key, value, options);
        return true;
      }, options?.signal), options?.signal);
  }

  async keys(prefix?: string, options?: StorageCallOptions): Promise<string[]> {
    const given = this.#guard.prefix(prefix, options?.signal);
    const slash = given.lastIndexOf("/");
    const dirKey = slash === -1 ? "" : given.slice(0, slash);
    if (dirKey !== "" && (!isValidStorageKey(dirKey) || fileNameProblem(dirKey))) return [];
    return await this.#io("list", given, this.#root, async () => {
      let start: ResolvedKey | undefined;
      try {
        start = dirKey === ""
          ? undefined
          : await resolveKey(this.#root, keyToNames(dirKey), dirKey);
      } catch (error) {
        if (error instanceof StoragePathError) return [];
        throw error;
      }
      if (dirKey !== "" && !start?.stats?.isDirectory()) return [];
      const realRoot = start?.realRoot ?? await realRootOrUndefined(this.#root);
      if (realRoot === undefined) return [];
      const dir = start?.real ?? realRoot;
      return await walkKeys(dir, dirKey, { realRoot, prefix: given, signal: options?.signal });
    }, options?.signal);
  }

  async clear(prefix?: string, options?: StorageCallOptions): Promise<void> {
    const keys = await this.keys(prefix, options);
    for (const key of keys) await this.delete(key, options);
  }

  dispose(): Promise<void> {
    this.#guard.dispose();
    return Promise.resolve();
  }

  /**
   * One `lstat` of the lexical path (plus a `stat` when it is a symlink): device, inode, size,
   * mode and nanosecond mtime and ctime. It only fingerprints: content always comes through
   * `get`, with its containment checks, so a path swapped under it can only change the tag.
   */
  async version(given: string, options?: StorageCallOptions): Promise<StorageVersion | undefined> {
    const folder = given === "" || given.endsWith("/");
    if (folder) this.#guard.prefix(given, options?.signal);
    else this.#guard.key(given, options?.signal);
    this.#sweep();
    const key = folder ? given.slice(0, -1) : given;
    if (key !== "" && fileNameProblem(key) !== undefined) return undefined;
    const file = key === "" ? this.#root : path.join(this.#root, ...keyToNames(key));
    const found = await lstat(file, { bigint: true }).catch((error) => {
      if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return undefined;
      throw wrap("read", given, file, error);
    });
    if (found === undefined || found.isDirectory() !== folder && !found.isSymbolicLink()) {
      return undefined;
    }
    const target = found.isSymbolicLink()
      ? await stat(file, { bigint: true }).catch(() => undefined)
      : undefined;
    if (found.isSymbolicLink() && target?.isDirectory() !== folder) return undefined;
    const newest = [found, target].reduce(
      (n, s) => s === undefined ? n : Math.max(n, Number(s.mtimeMs), Number(s.ctimeMs)),
      0,
    );
    const tag = [found, target].map((s) =>
      s === undefined ? "-" : `${s.dev}:${s.ino}:${s.size}:${s.mode}:${s.mtimeNs}:${s.ctimeNs}`
    ).join("|");
    return { tag, settled: Date.now() - newest > SETTLE_MS };
  }

  /**
   * The first use of a root in this process removes the temp files that killed writers left in
   * it, in the background: reads never wait for it (`_fs_stale.ts`).
   */
  #sweep(): void {
    void sweepOnce(this.#root, TEMP_PREFIX);
  }

  /** The encoded names of `key`, refusing keys no file system can hold. */
  #names(key: string): string[] {
    const problem = fileNameProblem(key);
    if (problem !== undefined) throw new InvalidStorageKeyError(key, problem);
    return keyToNames(key);
  }

  #assertFile(found: ResolvedKey, key: string): void {
    if (found.stats?.isFile()) return;
    throw new StoragePathError(
      `Cannot use storage key "${key}": ${found.real} is not a regular file`,
      found.real,
      { key },
    );
  }

  /** Run `fn`, wrapping OS errors so they name the key and the path and keep the cause. */
  async #io<T>(
    verb: Verb,
    key: string,
    where: string | readonly string[],
    fn: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    this.#sweep();
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      const file = typeof where === "string" ? where : path.join(this.#root, ...where);
      throw wrap(verb, key, file, error);
    }
  }
}

type Verb = "read" | "write" | "delete" | "list";

/**
 * How long after a change a file's timestamps are trusted to tell a later change apart: file
 * systems keep them at 10 ms (Linux), 1 s (HFS+) or 2 s (FAT) granularity.
 */
const SETTLE_MS = 2_000;

/** UTF-8 cannot hold lone surrogates: refuse such a value before anything is written. */
function assertWellFormed(key: string, value: string): void {
  if (isWellFormed(value)) return;
  throw new TypeError(
    `Cannot write storage key "${key}": the value has lone surrogates, which UTF-8 cannot hold`,
  );
}

/** A {@linkcode StorageError} naming the key and the file, with the OS error as `cause`. */
function wrap(verb: Verb, key: string, file: string, error: unknown): Error {
  if (error instanceof StorageError) return error;
  const text = verb === "list"
    ? `Cannot list storage keys with prefix ${JSON.stringify(key)} in ${file}`
    : `Cannot ${verb} storage key "${key}" ${verb === "write" ? "to" : "at"} ${file}`;
  return new StorageError(`${text}: ${message(error)}`, {
    key: verb === "list" ? undefined : key,
    cause: error,
  });
}

/** Remove the folders of `names` that are now empty, deepest first, never the root. */
async function pruneEmptyFolders(realRoot: string, names: readonly string[]): Promise<void> {
  for (let depth = names.length - 1; depth > 0; depth--) {
    try {
      await rmdir(path.join(realRoot, ...names.slice(0, depth)));
    } catch {
      return;
    }
  }
}

async function realRootOrUndefined(root: string): Promise<string | undefined> {
  try {
    return await realpath(root);
  } catch (error) {
    if (code(error) === "ENOENT") return undefined;
    throw error;
  }
}
