/**
 * The checks every adapter runs at the start of a call, before any I/O: not disposed, a valid
 * key (or prefix) and value, and a signal that is not aborted. Private to the adapters.
 *
 * @module
 */

import { describeKey, storageKeyProblem, storagePrefixProblem } from "./_key_rules.ts";
import { StorageDisposedError } from "./errors.ts";
import { InvalidStorageKeyError } from "./key.ts";

/** Tracks whether an adapter is disposed and runs the per-call checks. */
export class StorageGuard {
  #adapter: string;
  #disposed = false;

  /** @param adapter The adapter's name for messages, e.g. `memory`. */
  constructor(adapter: string) {
    this.#adapter = adapter;
  }

  /** Whether `dispose()` has been called. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Mark the adapter disposed; later calls reject. */
  dispose(): void {
    this.#disposed = true;
  }

  /** Check a call on one key; throws on the first problem. */
  key(key: string, signal: AbortSignal | undefined): void {
    this.alive(key);
    const problem = storageKeyProblem(key);
    if (problem !== undefined) throw new InvalidStorageKeyError(key, problem);
    signal?.throwIfAborted();
  }

  /** Check a `set` call: the key, then that the value is a string. */
  set(key: string, value: string, signal: AbortSignal | undefined): void {
    this.alive(key);
    const problem = storageKeyProblem(key);
    if (problem !== undefined) throw new InvalidStorageKeyError(key, problem);
    if (typeof value !== "string") {
      throw new TypeError(
        `Cannot set storage key ${describeKey(key)}: value must be a string, not ${typeof value}`,
      );
    }
    signal?.throwIfAborted();
  }

  /** Check a `compareAndSet` call: a `set` of `value`, or a delete when it is `undefined`. */
  swap(key: string, value: string | undefined, signal: AbortSignal | undefined): void {
    if (value === undefined) this.key(key, signal);
    else this.set(key, value, signal);
  }

  /** Check a `keys`/`clear` call and return the prefix (`""` when omitted). */
  prefix(prefix: string | undefined, signal: AbortSignal | undefined): string {
    this.alive();
    const given = prefix ?? "";
    const problem = storagePrefixProblem(given);
    if (problem !== undefined) {
      throw new InvalidStorageKeyError(given, problem, "storage key prefix");
    }
    signal?.throwIfAborted();
    return given;
  }

  /** Throw {@linkcode StorageDisposedError} once disposed. */
  alive(key?: string): void {
    if (this.#disposed) throw new StorageDisposedError(this.#adapter, key);
  }
}
