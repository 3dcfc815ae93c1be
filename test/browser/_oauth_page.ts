/**
 * Browser page for the OAuth store test: tokens and client secrets in IndexedDB, sealed with a
 * non-extractable CryptoKey kept in IndexedDB. Exposes `globalThis.__oauth`.
 *
 * @module
 */

import { createOAuthStore } from "../../lib/mcp/auth/store.ts";
import type { OAuthRecord } from "../../lib/mcp/auth/types.ts";
import { createSecretBox } from "../../lib/mcp/sealing/secrets.ts";
import { createIndexedDbStorage, loadIndexedDbCryptoKey } from "../../lib/storage/indexed_db.ts";

const dbName = "oauth-test";
const RESOURCE = "https://mcp.example.com/mcp";
const store = () =>
  createOAuthStore(createIndexedDbStorage({ dbName }), {
    box: createSecretBox({ key: () => loadIndexedDbCryptoKey({ name: "oauth" }) }),
  });

(globalThis as unknown as { __oauth: unknown }).__oauth = {
  save: (record: OAuthRecord) => store().set(RESOURCE, record),
  read: () => store().get(RESOURCE),
  forget: () => store().delete(RESOURCE),
  async written() {
    const raw = createIndexedDbStorage({ dbName });
    const parts: string[] = [];
    for (const key of await raw.keys()) parts.push(key, (await raw.get(key)) ?? "");
    await raw.dispose?.();
    return parts.join("\n");
  },
  ready: true,
};
