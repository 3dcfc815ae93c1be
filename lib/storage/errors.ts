/**
 * The storage family of errors: {@linkcode StorageError} and its subclasses, raised by the
 * adapters besides `InvalidStorageKeyError`. Each has a `code`, keeps the key it was about and
 * the underlying error as `cause`; guards check `name`, so they work across
 * bundles and realms.
 *
 * @module
 */

/**
 * Why a storage call failed, as a stable string to branch on:
 * - `io`: the backend failed (an OS error, a DOMException, an unstorage driver's error); see `cause`
 * - `invalid-value`: a stored value is not a string (something else wrote it)
 * - `conflict`: the key's file collides with a folder on disk, or its folder keeps vanishing
 * - `locked`: another writer has held the fs adapter's lock for too long
 * - `path`: {@linkcode StoragePathError}, a path the fs adapter refuses (it leaves the root)
 * - `disposed`: {@linkcode StorageDisposedError}, a call after `dispose()`
 * - `invalid-key`: `InvalidStorageKeyError`, a key that breaks the key rules. It is a
 *   `TypeError` (a bad argument, as the platform's are), so not a `StorageError`
 */
export type StorageErrorCode =
  | "io"
  | "invalid-value"
  | "conflict"
  | "locked"
  | "path"
  | "disposed"
  | "invalid-key";

/** Options of {@linkcode StorageError}. */
export interface StorageErrorOptions {
  /** Why it failed, when it is not `io` (the subclasses set theirs). */
  code?: "io" | "invalid-value" | "conflict" | "locked";
  /** The key the failed call was about, if any. */
  key?: string;
  /** The underlying error (an OS error, a DOMException, ...). */
  cause?: unknown;
}

/**
 * A storage call failed: an I/O error, a refused path, a store that is disposed; the base of
 * the storage family, with a `code` for the reason.
 *
 * @example Read the code, the key and the cause of a failure
 * ```ts
 * import { isStorageError } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const store = createFsStorage({ root: "/proc/skillmux-cannot-write-here" });
 * const error = await store.set("a.md", "x").catch((e) => e);
 * if (isStorageError(error)) console.log(error.code, error.key, error.cause); // "io" "a.md" …
 * ```
 */
export class StorageError extends Error {
  /** Why it failed (see {@linkcode StorageErrorCode}). */
  readonly code: StorageErrorCode;
  /** The key the failed call was about, if any. */
  readonly key: string | undefined;

  /**
   * Create a storage error.
   *
   * @param message What failed, naming the key (and the file, for the fs adapter).
   * @param options The key and the underlying error.
   */
  constructor(message: string, options: StorageErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StorageError";
    this.code = options.code ?? "io";
    this.key = options.key;
  }
}

/**
 * The fs adapter refused a path: it would leave the storage root (a symlink pointing outside,
 * a dangling symlink) or is not a plain file or folder.
 *
 * @example
 * ```ts
 * import { isStoragePathError } from "@skillmux/core/storage";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const store = createFsStorage({ root: "./data" });
 * const error = await store.get("link-to-etc-passwd").catch((e) => e);
 * console.log(isStoragePathError(error)); // true when the link points outside ./data
 * ```
 */
export class StoragePathError extends StorageError {
  /** Always `path`. */
  override readonly code: "path" = "path";
  /** The file system path that was refused. */
  readonly path: string;

  /**
   * Create a path error.
   *
   * @param message Why the path was refused, naming the key and the path.
   * @param path The refused path.
   * @param options The key and the underlying error.
   */
  constructor(message: string, path: string, options: StorageErrorOptions = {}) {
    super(message, options);
    this.name = "StoragePathError";
    this.path = path;
  }
}

/**
 * A call was made after `dispose()`.
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { isStorageDisposedError } from "@skillmux/core/storage";
 * const store = createMemoryStorage();
 * await store.dispose?.();
 * const error = await store.get("a").catch((e) => e);
 * console.log(isStorageDisposedError(error)); // true
 * ```
 */
export class StorageDisposedError extends StorageError {
  /** Always `disposed`. */
  override readonly code: "disposed" = "disposed";
  /**
   * Create the error for a call on a disposed adapter.
   *
   * @param adapter The adapter's name, e.g. `memory`.
   * @param key The key of the refused call, if any.
   */
  constructor(adapter: string, key?: string) {
    super(`Cannot use ${adapter} storage: it has been disposed`, { key });
    this.name = "StorageDisposedError";
  }
}

/**
 * Whether `error` is a {@linkcode StorageError} (or one of its subclasses).
 *
 * @example
 * ```ts
 * import { isStorageError, StorageError } from "@skillmux/core";
 * console.log(isStorageError(new StorageError("boom"))); // true
 * ```
 */
export function isStorageError(error: unknown): error is StorageError {
  return error instanceof Error &&
    (error.name === "StorageError" || error.name === "StoragePathError" ||
      error.name === "StorageDisposedError");
}

/**
 * Whether `error` is a {@linkcode StoragePathError}.
 *
 * @example
 * ```ts
 * import { isStoragePathError, StoragePathError } from "@skillmux/core/storage";
 * console.log(isStoragePathError(new StoragePathError("refused", "/x"))); // true
 * ```
 */
export function isStoragePathError(error: unknown): error is StoragePathError {
  return error instanceof Error && error.name === "StoragePathError";
}

/**
 * Whether `error` is a {@linkcode StorageDisposedError}.
 *
 * @example
 * ```ts
 * import { isStorageDisposedError, StorageDisposedError } from "@skillmux/core/storage";
 * console.log(isStorageDisposedError(new StorageDisposedError("memory"))); // true
 * ```
 */
export function isStorageDisposedError(error: unknown): error is StorageDisposedError {
  return error instanceof Error && error.name === "StorageDisposedError";
}
