/**
 * Browser page for the secrets test: a registry over IndexedDB whose secrets are sealed with a
 * non-extractable CryptoKey kept in IndexedDB. Exposes `globalThis.__secrets`.
 *
 * @module
 */

import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { createSecretBox } from "../../lib/mcp/sealing/secrets.ts";
import { createIndexedDbStorage, loadIndexedDbCryptoKey } from "../../lib/storage/indexed_db.ts";

const dbName = "secrets-test";
const registry = () =>
  createServerRegistry({
    storage: createIndexedDbStorage({ dbName }),
    secrets: { key: () => loadIndexedDbCryptoKey() },
  });

(globalThis as unknown as { __secrets: unknown }).__secrets = {
  async add(apiKey: string) {
    await registry().add({
      name: "docs",
      url: "https://docs.example.com/mcp",
      apiKey,
      headers: { "X-Token": apiKey },
    }, {
      discover: false,
      replace: true,
    });
  },
  async read() {
    const server = await registry().get("docs");
    return { apiKey: server?.apiKey, header: server?.headers?.["X-Token"] };
  },
  async key() {
    const key = await loadIndexedDbCryptoKey();
    const exported = await crypto.subtle.exportKey("raw", key).then(
      () => "exported",
      (e) => e.name,
    );
    return {
      extractable: key.extractable,
      algorithm: key.algorithm.name,
      exported,
      id: await createSecretBox({ key }).keyId(),
    };
  },
  async written() {
    const store = createIndexedDbStorage({ dbName });
    const parts: string[] = [];
    for (const key of await store.keys()) parts.push(key, (await store.get(key)) ?? "");
    await store.dispose?.();
    return parts.join("\n");
  },
  ready: true,
};
