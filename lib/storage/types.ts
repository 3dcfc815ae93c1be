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
  /**
   * Atomically, across every writer of the store: when the value at `key` is `expected`
   * (`undefined`: the key is absent), replace it with `value` (`undefined`: delete the key) and
   * resolve `true`; otherwise change nothing and resolve `false`. Optional: only adapters that
   * can do this atomically implement it — memory, IndexedDB (one readwrite transaction, atomic
   * across tabs), `unstorage` over Redis or its memory driver, and fs (under a per-key lock file,
   * atomic against every other `compareAndSet` of the key in any process sharing the folder);
   * callers fall back to last-writer-wins without it.
   */
  compareAndSet?(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    options?: StorageCallOptions,
  ): Promise<boolean>;
  /** Release handles the adapter holds. Calls after `dispose` reject. */
  dispose?(): Promise<void>;
  /**
   * A cheap fingerprint of the value at a key, or of the direct entries of a folder (a prefix
   * ending in `/`, or `""` for the root), for caches that must never serve stale data; `undefined`
   * when nothing is there. Optional: adapters without a cheap way to tell leave it out.
   */
  version?(path: string, options?: StorageCallOptions): Promise<StorageVersion | undefined>;
}

/**
 * What {@linkcode Storage.version} returns. A cache may reuse what it read after seeing `tag`
 * only when `settled` was `true` *before* it read: then any later change changes `tag`. While
 * `settled` is `false` (a file changed within the last two seconds, when coarse file-system
 * timestamps cannot yet tell two writes apart), compare the content instead.
 *
 * @example Reuse a cached read while the fingerprint holds
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * const store = createMemoryStorage({ initial: { "a.md": "A" } });
 * const before = await store.version!("a.md");
 * await store.set("a.md", "B");
 * console.log(before?.tag !== (await store.version!("a.md"))?.tag); // true
 * ```
 */
export interface StorageVersion {
  /** Changes whenever the value (or the folder's list of entries) may have changed. */
  tag: string;
  /** Whether any later change is certain to change `tag` (see above). */
  settled: boolean;
}
