/**
 * An in-memory storage adapter on a `Map`: for tests, caches and the browser fallback.
 *
 * @module
 */

import { StorageGuard } from "./_guard.ts";
import { assertStorageKey } from "./key.ts";
import type { Storage, StorageCallOptions, StorageVersion } from "./types.ts";

/** Options of {@linkcode createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Entries to start with; copied, and every key is validated. */
  initial?: Record<string, string>;
}

/**
 * Create a storage that keeps everything in a `Map` in this process. Nothing is persisted.
 * The `initial` entries are copied (later changes to the object do not show) and their keys
 * validated: an invalid key throws {@linkcode InvalidStorageKeyError} right away.
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * const store = createMemoryStorage({ initial: { "skills/demo.md": "# demo" } });
 * await store.set("skills/other.md", "# other");
 * console.log(await store.keys("skills/")); // ["skills/demo.md", "skills/other.md"]
 * ```
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  return new MemoryStorage(options.initial ?? {});
}

class MemoryStorage implements Storage {
  #map = new Map<string, string>();
  /** A write counter per key, and one for the set of keys (any add or delete). */
  #writes = new Map<string, number>();
  #clock = 0;
  #shape = 0;
  #guard = new StorageGuard("memory");

  constructor(initial: Record<string, string>) {
    for (const [key, value] of Object.entries(initial)) {
      assertStorageKey(key);
      if (typeof value !== "string") {
        throw new TypeError(`Cannot set storage key "${key}": value must be a string`);
      }
      this.#map.set(key, value);
    }
  }

  get(key: string, options?: StorageCallOptions): Promise<string | undefined> {
    return run(() => {
      this.#guard.key(key, options?.signal);
      return this.#map.get(key);
    });
  }

  set(key: string, value: string, options?: StorageCallOptions): Promise<void> {
    return run(() => {
      this.#guard.set(key, value, options?.signal);
      if (!this.#map.has(key)) this.#shape = ++this.#clock;
      this.#map.set(key, value);
      this.#writes.set(key, ++this.#clock);
    });
  }

  delete(key: string, options?: StorageCallOptions): Promise<void> {
    return run(() => {
      this.#guard.key(key, options?.signal);
      if (this.#map.delete(key)) this.#shape = ++this.#clock;
      this.#writes.delete(key);
    });
  }

  keys(prefix?: string, options?: StorageCallOptions): Promise<string[]> {
    return run(() => {
      const given = this.#guard.prefix(prefix, options?.signal);
      return [...this.#map.keys()].filter((key) => key.startsWith(given)).sort();
    });
  }

  clear(prefix?: string, options?: StorageCallOptions): Promise<void> {
    return run(() => {
      const given = this.#guard.prefix(prefix, options?.signal);
      for (const key of [...this.#map.keys()]) {
        if (key.startsWith(given)) this.#map.delete(key), this.#writes.delete(key);
      }
      this.#shape = ++this.#clock;
    });
  }

  version(path: string, options?: StorageCallOptions): Promise<StorageVersion | undefined> {
    return run(() => {
      if (path === "" || path.endsWith("/")) {
        const given = this.#guard.prefix(path, options?.signal);
        const any = given === "" || [...this.#map.keys()].some((key) => key.startsWith(given));
        return any ? { tag: `shape:${this.#shape}`, settled: true } : undefined;
      }
      this.#guard.key(path, options?.signal);
      const at = this.#writes.get(path) ?? (this.#map.has(path) ? 0 : undefined);
      return at === undefined ? undefined : { tag: `write:${at}`, settled: true };
    });
  }

  compareAndSet(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    options?: StorageCallOptions,
  ): Promise<boolean> {
    return run(() => {
      this.#guard.swap(key, value, options?.signal);
      if (this.#map.get(key) !== expected) return false;
      if (value === undefined) this.#map.delete(key);
      else this.#map.set(key, value);
      return true;
    });
  }

  dispose(): Promise<void> {
    this.#guard.dispose();
    this.#map.clear();
    return Promise.resolve();
  }
}

/** Run `fn` and turn its result or throw into a settled promise. */
function run<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}
