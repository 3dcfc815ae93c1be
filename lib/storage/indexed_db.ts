/**
 * The IndexedDB storage adapter for browsers, on `idb-keyval`.
 *
 * @example
 * ```ts
 * import { createIndexedDbStorage } from "@skillmux/core/indexed-db";
 * const store = createIndexedDbStorage();
 * await store.set("skills/demo.md", "# demo");
 * console.log(await store.keys("skills/")); // ["skills/demo.md"]
 * ```
 *
 * @module
 */

import { clear, createStore, del, delMany, get, keys, set, type UseStore } from "idb-keyval";
import { StorageGuard } from "./_guard.ts";
import { StorageError } from "./errors.ts";
import type { Storage, StorageCallOptions } from "./types.ts";

/** Options of {@linkcode createIndexedDbStorage}. */
export interface IndexedDbStorageOptions {
  /** The database name; `"skillmux"` by default. */
  dbName?: string;
  /**
   * The object store name; `"kv"` by default. idb-keyval creates the store together with the
   * database, so use one store per database: a new store name needs a new `dbName`.
   */
  storeName?: string;
}

/**
 * Create a storage on an IndexedDB object store (one record per key, string values). Each call
 * is one IndexedDB transaction, so `set` is atomic, and so is `compareAndSet` across tabs. The database opens on the first call;
 * `dispose()` closes it. Uses only web-standard globals, so it runs in browsers, workers and
 * any runtime with an `indexedDB` global.
 *
 * @example Keep two independent stores
 * ```ts
 * import { createIndexedDbStorage } from "@skillmux/core/indexed-db";
 * const skills = createIndexedDbStorage({ dbName: "skillmux-skills" });
 * const cache = createIndexedDbStorage({ dbName: "skillmux-cache" });
 * await cache.set("mcp/docs/tools.json", "[]");
 * console.log(await skills.get("mcp/docs/tools.json")); // undefined
 * ```
 */
export function createIndexedDbStorage(options: IndexedDbStorageOptions = {}): Storage {
  return new IndexedDbStorage(options.dbName ?? "skillmux", options.storeName ?? "kv");
}

class IndexedDbStorage implements Storage {
  #store: UseStore;
  #name: string;
  #opened = false;
  #guard = new StorageGuard("IndexedDB");

  constructor(dbName: string, storeName: string) {
    this.#store = createStore(dbName, storeName);
    this.#name = `${dbName}/${storeName}`;
  }

  async get(key: string, options?: StorageCallOptions): Promise<string | undefined> {
    this.#guard.key(key, options?.signal);
    const value = await this.#run("read", key, () => get<unknown>(key, this.#store));
    if (value === undefined || typeof value === "string") return value;
    throw new StorageError(
      `Cannot read storage key "${key}" from IndexedDB ${this.#name}: the value is a ${typeof value}, not a string`,
      { key, code: "invalid-value" },
    );
  }

  async set(key: string, value: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.set(key, value, options?.signal);
    await this.#run("write", key, () => set(key, value, this.#store));
  }

  async delete(key: string, options?: StorageCallOptions): Promise<void> {
    this.#guard.key(key, options?.signal);
    await this.#run("delete", key, () => del(key, this.#store));
  }

  /**
   * One readwrite transaction reads the value and, when it is `expected`, writes `value`:
   * IndexedDB runs readwrite transactions on a store one at a time, across every tab and worker
   * of the origin, so this is atomic against every other writer.
   */
  async compareAndSet(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    options?: StorageCallOptions,
  ): Promise<boolean> {
    this.#guard.swap(key, value, options?.signal);
    return await this.#run(
      "write",
      key,
      () =>
        this.#store("readwrite", (store) =>
          new Promise<boolean>((resolve, reject) => {
            const read = store.get(key);
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              if (read.result !== expected) return resolve(false);
              const write = value === undefined ? store.delete(key) : store.put(value, key);
              write.onerror = () => reject(write.error);
              const tx = store.transaction;
              tx.oncomplete = () => resolve(true);
              tx.onabort = () => reject(tx.error ?? new Error("the transaction was aborted"));
            };
          })),
    );
  }

  async keys(prefix?: string, options?: StorageCallOptions): Promise<string[]> {
    const given = this.#guard.prefix(prefix, options?.signal);
    return await this.#run("list", given, () => this.#matching(given));
  }

  async clear(prefix?: string, options?: StorageCallOptions): Promise<void> {
    const given = this.#guard.prefix(prefix, options?.signal);
    await this.#run("clear", given, async () => {
      if (given === "") return await clear(this.#store);
      await delMany(await this.#matching(given), this.#store);
    });
  }

  async dispose(): Promise<void> {
    if (this.#guard.disposed) return;
    this.#guard.dispose();
    if (!this.#opened) return;
    // idb-keyval has no close(); reach the connection through a transaction's store.
    const db = await this.#store("readonly", (store) => store.transaction.db).catch(() =>
      undefined
    );
    db?.close();
  }

  async #matching(prefix: string): Promise<string[]> {
    const all = await keys(this.#store);
    return all
      .filter((key): key is string => typeof key === "string" && key.startsWith(prefix))
      .sort();
  }

  /** Run an idb-keyval call, wrapping failures so they name the key and the database. */
  async #run<T>(verb: string, key: string, fn: () => Promise<T>): Promise<T> {
    this.#opened = true;
    try {
      return await fn();
    } catch (error) {
      const what = verb === "list" || verb === "clear"
        ? `storage keys with prefix ${JSON.stringify(key)}`
        : `storage key "${key}"`;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new StorageError(`Cannot ${verb} ${what} in IndexedDB ${this.#name}: ${reason}`, {
        key: verb === "list" || verb === "clear" ? undefined : key,
        cause: error,
      });
    }
  }
}

export { type IndexedDbCryptoKeyOptions, loadIndexedDbCryptoKey } from "./indexed_db_key.ts";
