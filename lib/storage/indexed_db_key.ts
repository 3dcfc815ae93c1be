/**
 * A browser's secret key: a non-extractable AES-GCM `CryptoKey` created once and kept in
 * IndexedDB (structured clone keeps `CryptoKey`s), so page scripts can use it but never read it.
 *
 * @module
 */

import { createStore, get, update } from "idb-keyval";

/** Options of {@linkcode loadIndexedDbCryptoKey}. */
export interface IndexedDbCryptoKeyOptions {
  /** The database name (default `skillmux-keys`). */
  dbName?: string;
  /** The key's name in it (default `registry-secrets`). */
  name?: string;
}

/**
 * The AES-256-GCM key named `name` in IndexedDB, created (non-extractable) on first use. Two
 * tabs racing to create it end up with the same key: the first one stored wins. Pass it as the
 * secret key of a registry: `createMultiUserRegistry({ storage, secrets: { key: () => loadIndexedDbCryptoKey() } })`.
 *
 * @example
 * ```ts
 * import { createServerRegistry } from "@skillmux/core";
 * import { createIndexedDbStorage, loadIndexedDbCryptoKey } from "@skillmux/core/indexed-db";
 * const registry = createServerRegistry({
 *   storage: createIndexedDbStorage(),
 *   secrets: { key: () => loadIndexedDbCryptoKey() },
 * });
 * await registry.add({ name: "docs", url: "https://docs.example.com/mcp", apiKey: "sk-1" }, { discover: false });
 * ```
 */
export async function loadIndexedDbCryptoKey(
  options: IndexedDbCryptoKeyOptions = {},
): Promise<CryptoKey> {
  const store = createStore(options.dbName ?? "skillmux-keys", "keys");
  const name = options.name ?? "registry-secrets";
  const existing = await get<unknown>(name, store);
  if (existing instanceof CryptoKey) return existing;
  const created = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  await update<unknown>(name, (old) => (old instanceof CryptoKey ? old : created), store);
  const stored = await get<unknown>(name, store);
  if (!(stored instanceof CryptoKey)) {
    throw new Error(
      `IndexedDB ${options.dbName ?? "skillmux-keys"} did not keep the key "${name}"`,
    );
  }
  return stored;
}
