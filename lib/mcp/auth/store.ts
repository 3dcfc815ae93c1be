/**
 * Where OAuth registrations and tokens live: in memory, or behind any storage adapter with the
 * secret fields (access token, refresh token, client secret) sealed by a `SecretBox` — on
 * Deno/Node a private fs storage (0600 files), in browsers IndexedDB with a non-extractable
 * WebCrypto key (`loadIndexedDbCryptoKey`).
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import type { SecretBox } from "../sealing/secrets.ts";
import type { OAuthRecord, OAuthStore } from "./types.ts";
import { inTurn } from "../../_in_turn.ts";
import { withLease } from "./_lease.ts";

/**
 * An OAuth store that lives as long as the process (the default of the `auth` option).
 *
 * @example
 * ```ts
 * import { createMemoryOAuthStore } from "@skillmux/core/oauth";
 * const store = createMemoryOAuthStore();
 * await store.set("https://mcp.example.com/mcp", { issuer: "https://auth.example.com" });
 * console.log((await store.get("https://mcp.example.com/mcp"))?.issuer);
 * ```
 */
export function createMemoryOAuthStore(): OAuthStore {
  const records = new Map<string, string>();
  const store: OAuthStore = {
    get: (resource) => {
      const json = records.get(resource);
      return Promise.resolve(json === undefined ? undefined : JSON.parse(json));
    },
    set: (resource, record) => {
      records.set(resource, JSON.stringify(record));
      return Promise.resolve();
    },
    delete: (resource) => {
      records.delete(resource);
      return Promise.resolve();
    },
    exclusive: (resource, fn) => inTurn(store, resource, fn),
  };
  return store;
}

/** Options of {@linkcode createOAuthStore}. */
export interface OAuthStoreOptions {
  /** Seals the secret fields; without one they are stored as they are (use a private fs storage). */
  box?: SecretBox;
  /** The key prefix (default `oauth/`). */
  prefix?: string;
}

async function keyOf(prefix: string, resource: string, suffix = ".json"): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(resource)),
  );
  const hex = Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${prefix}${hex}${suffix}`;
}

type Field = "accessToken" | "refreshToken" | "clientSecret";

async function transform(
  record: OAuthRecord,
  resource: string,
  fn: (value: string, context: string) => Promise<string>,
): Promise<OAuthRecord> {
  const out: OAuthRecord = structuredClone(record);
  const at = (field: Field) => `oauth:${resource}:${field}`;
  if (out.tokens) {
    out.tokens.accessToken = await fn(out.tokens.accessToken, at("accessToken"));
    if (out.tokens.refreshToken !== undefined) {
      out.tokens.refreshToken = await fn(out.tokens.refreshToken, at("refreshToken"));
    }
  }
  if (out.client?.clientSecret !== undefined) {
    out.client.clientSecret = await fn(out.client.clientSecret, at("clientSecret"));
  }
  return out;
}

/**
 * An OAuth store on a storage adapter: one JSON value per MCP server under `oauth/`, secret
 * fields sealed by `box` (bound to the server URL and field, so a copied value does not open).
 * Each record is written whole in one `set` (new access and refresh tokens together). Its
 * `exclusive` holds a lease (`oauth/<hash>.lock`, taken and given back with the storage's
 * `compareAndSet`) across every process sharing the storage — fs, IndexedDB (tabs), unstorage
 * over Redis, memory — so processes refreshing at once rotate the refresh token one after the
 * other; on a storage without `compareAndSet` it holds within this process only.
 *
 * @example Tokens in a private folder (Node/Deno), sealed
 * ```ts
 * import { createSecretBox } from "@skillmux/core/mcp";
 * import { createOAuthStore } from "@skillmux/core/oauth";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const store = createOAuthStore(createFsStorage({ root: ".skillmux", private: true }), {
 *   box: createSecretBox({ key: crypto.getRandomValues(new Uint8Array(32)) }),
 * });
 * await store.set("https://mcp.example.com/mcp", { issuer: "https://auth.example.com" });
 * ```
 */
export function createOAuthStore(storage: Storage, options: OAuthStoreOptions = {}): OAuthStore {
  const prefix = options.prefix ?? "oauth/";
  const box = options.box;
  return {
    async get(resource) {
      const json = await storage.get(await keyOf(prefix, resource));
      if (json === undefined) return undefined;
      const stored = JSON.parse(json) as OAuthRecord & { resource?: string };
      delete stored.resource;
      return box ? await transform(stored, resource, (v, c) => box.open(v, c)) : stored;
    },
    async set(resource, record) {
      const sealed = box ? await transform(record, resource, (v, c) => box.seal(v, c)) : record;
      await storage.set(await keyOf(prefix, resource), JSON.stringify({ resource, ...sealed }));
    },
    async delete(resource) {
      await storage.delete(await keyOf(prefix, resource));
    },
    async exclusive(resource, fn) {
      return await withLease(storage, await keyOf(prefix, resource, ".lock"), fn);
    },
  };
}
