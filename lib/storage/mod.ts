/**
 * The isomorphic storage layer: the {@linkcode Storage} interface, key rules, errors and the
 * memory adapter. The runtime-specific adapters are separate entry points:
 * `@skillmux/core/fs` (Deno, Node) and `@skillmux/core/indexed-db` (browsers).
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * const store = createMemoryStorage();
 * await store.set("skills/demo.md", "# demo");
 * console.log(await store.get("skills/demo.md")); // "# demo"
 * ```
 *
 * @module
 */

export {
  isStorageDisposedError,
  isStorageError,
  isStoragePathError,
  StorageDisposedError,
  StorageError,
  type StorageErrorCode,
  type StorageErrorOptions,
  StoragePathError,
} from "./errors.ts";
export {
  assertStorageKey,
  InvalidStorageKeyError,
  isInvalidStorageKeyError,
  isValidStorageKey,
} from "./key.ts";
export { createMemoryStorage, type MemoryStorageOptions } from "./memory.ts";
export type { Storage, StorageCallOptions, StorageVersion } from "./types.ts";
