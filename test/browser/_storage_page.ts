/**
 * Browser page for the storage tests: runs the shared conformance cases against real IndexedDB
 * (a fresh database per case, deleted afterwards) and publishes the outcome as
 * `globalThis.__results = [{ name, ok, error }]`. Also exposes the factory as
 * `globalThis.__skillmux.createIndexedDbStorage` for tests that drive the page themselves.
 *
 * @module
 */

import { createIndexedDbStorage } from "../../lib/storage/indexed_db.ts";
import { storageConformanceCases } from "../storage/_conformance.ts";

/** One case's outcome. */
export interface CaseResult {
  name: string;
  ok: boolean;
  error?: string;
}

const page = globalThis as typeof globalThis & {
  __results?: CaseResult[];
  __skillmux?: { createIndexedDbStorage: typeof createIndexedDbStorage };
};

page.__skillmux = { createIndexedDbStorage };

/**
 * Delete a database. `blocked` may fire while a closed connection finishes its last transaction;
 * the request then completes by itself, unless a connection was left open (timeout).
 */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    const timer = setTimeout(
      () => reject(new Error(`deleting ${name} stays blocked: a connection was left open`)),
      5_000,
    );
    request.onsuccess = () => {
      clearTimeout(timer);
      resolve();
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(request.error);
    };
  });
}

async function runCases(): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const run = crypto.randomUUID();
  for (const [index, { name, run: exercise }] of storageConformanceCases.entries()) {
    const dbName = `conformance-${run}-${index}`;
    const store = createIndexedDbStorage({ dbName });
    let result: CaseResult;
    try {
      await exercise(store);
      result = { name, ok: true };
    } catch (error) {
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      result = { name, ok: false, error: text };
    }
    try {
      await store.dispose?.();
      await deleteDatabase(dbName);
    } catch (error) {
      if (result.ok) result = { name, ok: false, error: `cleanup: ${String(error)}` };
    }
    results.push(result);
  }
  return results;
}

page.__results = await runCases();
