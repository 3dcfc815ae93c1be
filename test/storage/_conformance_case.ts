/**
 * The shape of one storage conformance case.
 *
 * @module
 */

import type { Storage } from "../../lib/storage/mod.ts";

/** One case of the shared storage conformance suite; `run` gets a fresh, empty store. */
export interface StorageConformanceCase {
  /** Unique, human-readable name (used as the test name in every runtime). */
  readonly name: string;
  /** Exercise `store`; rejects (with an `AssertionError` or the adapter's error) on failure. */
  run(store: Storage): Promise<void>;
}
