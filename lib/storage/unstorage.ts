/**
 * A storage adapter over any [unstorage](https://unstorage.unjs.io) instance, so Redis,
 * SQL databases (db0), S3, Deno KV, Cloudflare KV and the rest of its drivers serve as
 * skillmux storage. unstorage itself is not imported here: pass your own instance.
 *
 * @example
 * ```ts
 * import { createStorage } from "unstorage";
 * import redisDriver from "unstorage/drivers/redis";
 * import { createUnstorageStorage } from "@skillmux/core/unstorage";
 * const store = createUnstorageStorage(
 *   createStorage({ driver: redisDriver({ url: "redis://127.0.0.1:6379" }) }),
 *   { base: "skillmux" },
 * );
 * await store.set("skills/demo.md", "# demo");
 * console.log(await store.keys("skills/")); // ["skills/demo.md"]
 * ```
 *
 * @module
 */

import { StorageGuard } from "./_guard.ts";
import { driverCompareAndSet, type UnstorageDriverLike } from "./_unstorage_cas.ts";
import { fromUnstorageKey, listBase, normaliseBase, toUnstorageKey } from "./_unstorage_keys.ts";
import { StorageError } from "./errors.ts";
import type { Storage, StorageCallOptions } from "./types.ts";

export type { UnstorageDriverLike } from "./_unstorage_cas.ts";

/** The part of an unstorage `Storage` the adapter uses; any `createStorage()` result fits. */
export interface UnstorageLike {
  /** Read a value (unstorage parses it; the adapter stores JSON strings, so it gets them back). */
  getItem(key: string): Promise<unknown>;
  /** Write a value. */
  setItem(key: string, value: string): Promise<void>;
  /** Delete a value. */
  removeItem(key: string): Promise<void>;
  /** Keys under a base, `:`-separated. */
  getKeys(base?: string): Promise<string[]>;
  /** The driver mounted for a key (used to find an atomic compare-and-set). */
  getMount?(key?: string): { base: string; driver: UnstorageDriverLike };
}

/** Options of {@linkcode createUnstorageStorage}. */
export interface UnstorageStorageOptions {
  /** A namespace for every key (`skillmux` stores `skills/a.md` as `skillmux:skills:a.md`). */
  base?: string;
  /** Reject any call that takes longer, in milliseconds, with a `StorageError` (default: none). */
  timeoutMs?: number;
  /**
   * Offer `compareAndSet` when the driver can do it atomically (Redis through a Lua script,
   * the memory driver); default `true`. `false` leaves it out: writers then use last-writer-wins.
   */
  compareAndSet?: boolean;
  /** The name used in error messages (default `unstorage (<driver>)`). */
  name?: string;
}

/**
 * Wrap an unstorage instance as a skillmux {@linkcode Storage}. Every key maps to one unstorage
 * key: `/` becomes `:`, and `%`, `:`, `?` and `$` inside a segment are percent-escaped, so every
 * valid skillmux key round-trips. Values are stored as JSON strings (unstorage would otherwise
 * turn `"42"` into a number). `keys()` and `clear()` list under the prefix's complete segments
 * and filter the rest here; `clear()` deletes key by key, so it never touches keys of other
 * namespaces. With Redis or the memory driver, `compareAndSet` is atomic. `dispose()` marks this
 * adapter disposed and leaves the unstorage instance (and its connection) to its owner.
 *
 * @example A namespace in an in-memory unstorage
 * ```ts
 * import { createStorage } from "unstorage";
 * import { createUnstorageStorage } from "@skillmux/core/unstorage";
 * const store = createUnstorageStorage(createStorage(), { base: "tenant-a" });
 * await store.set("servers/q?a:b.json", "{}");
 * console.log(await store.keys()); // ["servers/q?a:b.json"]
 * console.log(await store.compareAndSet?.("servers/q?a:b.json", "{}", "[]")); // true
 * ```
 */
export function createUnstorageStorage(
  unstorage: UnstorageLike,
  options: UnstorageStorageOptions = {},
): Storage {
  return new UnstorageStorage(unstorage, options);
}

class UnstorageStorage implements Storage {
  #u: UnstorageLike;
  #base: string;
  #name: string;
  #timeoutMs: number | undefined;
  #guard: StorageGuard;
  compareAndSet?: Storage["compareAndSet"];

  constructor(unstorage: UnstorageLike, options: UnstorageStorageOptions) {
    this.#u = unstorage;
    this.#base = normaliseBase(options.base);
    const mount = unstorage.getMount?.(this.#base);
    this.#name = options.name ?? `unstorage (${mount?.driver.name ?? "driver"})`;
    this.#guard = new StorageGuard(this.#name);
    this.#timeoutMs = options.timeoutMs;
    const cas = mount && options.compareAndSet !== false
      ? driverCompareAndSet(mount.driver)
      : undefined;
    if (cas && mount) {
      this.compareAndSet = (key, expected, value, call) => {
        this.#guard.swap(key, value, call?.signal);
        const full = toUnstorageKey(key, this.#base);
        const encode = (v: string | undefined) => v === undefined ? undefined : JSON.stringify(v);
        return this.#run(
          "compare-and-set",
          key,
          () => cas(full.slice(mount.base.length), encode(expected), encode(value)),
        );
      };
    }
  }

  async get(key: string, options?: StorageCallOptions): Promise<string | undefined> {
    this.#guard.key(key, options?.signal);
    const value = await this.#run("read", key, () => this.#u.getItem(this.#key(key)));
    if (value === null || value === undefined) return undefined;
    if (typeof value === "string") return value;
    throw new StorageError(
      `Cannot read storage key "${key}" from ${this.#name}: the value is a ${typeof value}, not a string written by skillmux`,
      { key, code: "invalid-value" },
    );
  }

  async set(key: string, value: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.set(key, value, options?.signal);
    await this.#run("write", key, () => this.#u.setItem(this.#key(key), JSON.stringify(value)));
  }

  async delete(key: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.key(key, options?.signal);
    await this.#run("delete", key, () => this.#u.removeItem(this.#key(key)));
  }

  async keys(prefix?: string, options?: StorageCallOptions): Promise<string[]> {
    const given = this.#guard.prefix(prefix, options?.signal);
    return await this.#run("list", given, () => this.#matching(given));
  }

  async clear(prefix?: string, options?: StorageCallOptions): Promise<void> {
    const given = this.#guard.prefix(prefix, options?.signal);
    await this.#run("clear", given, async () => {
      const keys = await this.#matching(given);
      for (let i = 0; i < keys.length; i += 100) {
        await Promise.all(keys.slice(i, i + 100).map((k) => this.#u.removeItem(this.#key(k))));
      }
    });
  }

  dispose(): Promise<void> {
    this.#guard.dispose();
    return Promise.resolve();
  }

  #key(key: string): string {
    return toUnstorageKey(key, this.#base);
  }

  async #matching(prefix: string): Promise<string[]> {
    const base = listBase(prefix, this.#base);
    if (base === undefined) return [];
    const keys = new Set<string>();
    for (const raw of await this.#u.getKeys(base)) {
      const key = fromUnstorageKey(raw, this.#base);
      if (key !== undefined && key.startsWith(prefix)) keys.add(key);
    }
    return [...keys].sort();
  }

  /** Run an unstorage call under the timeout, wrapping failures so they name the key. */
  async #run<T>(verb: string, key: string, fn: () => Promise<T>): Promise<T> {
    const many = verb === "list" || verb === "clear";
    const what = many ? `storage keys with prefix ${JSON.stringify(key)}` : `storage key "${key}"`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const call = fn();
      if (this.#timeoutMs === undefined) return await call;
      const limit = this.#timeoutMs;
      call.catch(() => {}); // a late failure after the timeout is already reported
      return await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${limit} ms`)),
            limit,
          );
        }),
      ]);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new StorageError(`Cannot ${verb} ${what} in ${this.#name}: ${reason}`, {
        key: many ? undefined : key,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
