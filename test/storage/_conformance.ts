/**
 * The one storage conformance suite every adapter runs: memory and fs under Node and Deno,
 * IndexedDB in Chromium. Cases use only the isomorphic `_assert.ts`, never `node:` modules.
 *
 * @module
 */

import type { StorageConformanceCase } from "./_conformance_case.ts";
import { casCases } from "./_conformance_cas.ts";
import { keyCases } from "./_conformance_keys.ts";
import { lifecycleCases } from "./_conformance_lifecycle.ts";
import { valueCases } from "./_conformance_values.ts";

export type { StorageConformanceCase } from "./_conformance_case.ts";

/** Every case, each to run against a fresh, empty store. */
export const storageConformanceCases: ReadonlyArray<StorageConformanceCase> = [
  ...valueCases,
  ...keyCases,
  ...lifecycleCases,
  ...casCases,
];
