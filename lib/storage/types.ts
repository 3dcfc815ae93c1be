/**
 * The storage interface every adapter implements.
 *
 * @module
 */

/** Options every storage call accepts. */
export interface StorageCallOptions {
  /** Abort the call; adapters check it before doing work. */
  signal?: AbortSignal;
}

/**
 * A small async key-value store for strings. Keys are `/`-separated paths of
 * non-empty segments (`skills/samtools.md`); see {@linkcode assertStorageKey}
 * for the exact rules. Serialisation (JSON and so on) is the caller's concern.
 *
 * @example Use any adapter through the interface
 * ```ts
 * import { createMemoryStorage, type Storage } from "@skillmux/core";
 * const store: Storage = createMemoryStorage();
 * await store.set("skills/demo.md", "# demo");
 * console.log(await store.get("skills/demo.md")); // "# demo"
 * console.log(await store.keys("skills/")); // ["skills/demo.md"]
 * ```
 */
export interface Storage {
  /** The value at `key`, or `undefined` when there is none. */
  get(key: string, options?: StorageCallOptions): Promise<string | undefined>;
  /** Store `value` at `key`, replacing any value atomically. */
  set(key: string, value: string, options?: StorageCallOptions): Promise<void>;
  /** Remove `key`; removing a missing key is not an error. */
  delete(key: string, options?: StorageCallOptions): Promise<void>;
  /** Every key that starts with `prefix` (all keys when omitted), sorted by code unit. */
  keys(prefix?: string, options?: StorageCallOptions): Promise<string[]>;
  /** Remove every key that starts with `prefix` (all keys when omitted). */
  clear?(prefix?: string, options?: StorageCallOptions): Promise<void>;
  /** Release handles the adapter holds. Calls after `dispose` reject. */
  dispose?(): Promise<void>;
}
