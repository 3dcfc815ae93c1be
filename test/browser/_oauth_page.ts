/**
 * Browser page for the OAuth store tests: tokens and client secrets in IndexedDB, sealed with a
 * non-extractable CryptoKey kept in IndexedDB. Exposes `globalThis.__oauth`; `saveFor`,
 * `readFor` and `accessToken` name the MCP server, and `accessToken` asks an `OAuthSession` over
 * the store (which refreshes a token that is due), as every tab of an app does.
 *
 * @module
 */

import { OAuthSession } from "../../lib/mcp/auth/session.ts";
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
  saveFor: (resource: string, record: OAuthRecord) => store().set(resource, record),
  readFor: (resource: string) => store().get(resource),
  accessToken: (resource: string) => new OAuthSession(resource, { store: store() }).accessToken(),
  async written() {
    const raw = createIndexedDbStorage({ dbName });
    const parts: string[] = [];
    for (const key of await raw.keys()) parts.push(key, (await raw.get(key)) ?? "");
    await raw.dispose?.();
    return parts.join("\n");
  },
  ready: true,
};
