/**
 * Storage key validation: the one set of rules every adapter enforces before any I/O.
 *
 * @module
 */

import { describeKey, storageKeyProblem } from "./_key_rules.ts";

/**
 * Thrown (or rejected with) when a storage key breaks the key rules. Adapters reject with it
 * before doing any I/O, so nothing is read or written for an invalid key.
 *
 * @example Tell a bad key from other failures
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { InvalidStorageKeyError } from "@skillmux/core/storage";
 * const store = createMemoryStorage();
 * try {
 *   await store.set("../escape", "x");
 * } catch (error) {
 *   console.log(error instanceof InvalidStorageKeyError); // true
 * }
 * ```
 */
export class InvalidStorageKeyError extends TypeError {
  /** Always `invalid-key` (the storage family's code for it; see `StorageErrorCode`). */
  readonly code: "invalid-key" = "invalid-key";
  /** The rejected key, as given. */
  readonly key: unknown;

  /**
   * Create the error for `key`.
   *
   * @param key The rejected key.
   * @param rule Which rule it breaks, e.g. `segment ".." is not allowed`.
   * @param what What kind of value was checked (`storage key` or `storage key prefix`).
   */
  constructor(key: unknown, rule: string, what = "storage key") {
    super(`Invalid ${what} ${describeKey(key)}: ${rule}`);
    this.name = "InvalidStorageKeyError";
    this.key = key;
  }
}

/**
 * Whether `error` is an {@linkcode InvalidStorageKeyError}, checked by `name` so it also works
 * across bundles and realms.
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { isInvalidStorageKeyError } from "@skillmux/core/storage";
 * const error = await createMemoryStorage().get("a//b").catch((e) => e);
 * console.log(isInvalidStorageKeyError(error)); // true
 * ```
 */
export function isInvalidStorageKeyError(error: unknown): error is InvalidStorageKeyError {
  return error instanceof Error && error.name === "InvalidStorageKeyError";
}

/**
 * Whether `key` is a valid storage key: a string of 1–1024 characters made of `/`-separated,
 * non-empty segments that are not `.` or `..`, with no `\` and no control characters
 * (U+0000–U+001F, U+007F). Any other Unicode is allowed.
 *
 * @example
 * ```ts
 * import { isValidStorageKey } from "@skillmux/core/storage";
 * console.log(isValidStorageKey("skills/ünïcødé-技能.md")); // true
 * console.log(isValidStorageKey("skills/../secrets")); // false
 * ```
 */
export function isValidStorageKey(key: unknown): key is string {
  return storageKeyProblem(key) === undefined;
}

/**
 * Throw an {@linkcode InvalidStorageKeyError} naming the key and the rule unless `key` is a
 * valid storage key (see {@linkcode isValidStorageKey} for the rules).
 *
 * @example
 * ```ts
 * import { assertStorageKey } from "@skillmux/core/storage";
 * assertStorageKey("skills/samtools.md"); // fine
 * try {
 *   assertStorageKey("../x");
 * } catch (error) {
 *   console.log((error as Error).message); // Invalid storage key "../x": segment ".." is not allowed
 * }
 * ```
 */
export function assertStorageKey(key: unknown): asserts key is string {
  const problem = storageKeyProblem(key);
  if (problem !== undefined) throw new InvalidStorageKeyError(key, problem);
}
