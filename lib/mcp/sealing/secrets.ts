/**
 * Secrets at rest: AES-256-GCM through WebCrypto (Deno, Node, browsers) with a key the host
 * supplies. Each value is sealed with a fresh 96-bit IV and bound to where it belongs (the
 * server id and field), so a sealed value copied to another server does not open.
 *
 * @module
 */

import { SecretKeyError } from "./errors.ts";

/** A key: 32 raw bytes, or an AES-GCM `CryptoKey` (which may be non-extractable). */
export type SecretKeyMaterial = Uint8Array | CryptoKey;

/** A key, or a callback that fetches it from a key service (called once, on first use). */
export type SecretKeySource = SecretKeyMaterial | (() => Promise<SecretKeyMaterial>);

/** Options of {@linkcode createSecretBox}. */
export interface SecretBoxOptions {
  /** The key new values are sealed with. */
  key: SecretKeySource;
  /** Older keys that may still open values, while a rotation is under way. */
  previousKeys?: readonly SecretKeySource[];
}

/** Seals and opens secret strings. */
export interface SecretBox {
  /** The current key's id: a check value derived from the key, never the key. */
  keyId(): Promise<string>;
  /** Seal `plain`, bound to `context` (e.g. `<server id>:apiKey`). */
  seal(plain: string, context: string): Promise<string>;
  /** Open a sealed value; throws `SecretKeyError` for a wrong key, a wrong context or tampering. */
  open(sealed: string, context: string): Promise<string>;
}

const PREFIX = "enc:v1:";
const OPENED_MAX = 10_000;
const CHECK_IV = new Uint8Array(12);
const CHECK_BLOCK = new Uint8Array(16);

/**
 * Whether `value` is a sealed secret (`enc:v1:<key id>:<base64url>`).
 *
 * @example
 * ```ts
 * import { isSealedSecret } from "@skillmux/core/mcp";
 * console.log(isSealedSecret("sk-plain"), isSealedSecret("enc:v1:1a2b3c4d:AAAA")); // false true
 * ```
 */
export function isSealedSecret(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(PREFIX);
}

interface LoadedKey {
  id: string;
  key: CryptoKey;
}

async function importKey(material: SecretKeyMaterial): Promise<CryptoKey> {
  if (material instanceof Uint8Array) {
    if (material.length !== 32) {
      throw new TypeError(`A secret key must be 32 bytes (AES-256), not ${material.length}`);
    }
    return await crypto.subtle.importKey("raw", new Uint8Array(material), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
  }
  if (
    typeof CryptoKey === "undefined" || !(material instanceof CryptoKey) ||
    material.algorithm.name !== "AES-GCM"
  ) {
    throw new TypeError("A secret key must be 32 bytes or an AES-GCM CryptoKey");
  }
  return material;
}

async function load(source: SecretKeySource): Promise<LoadedKey> {
  let material: SecretKeyMaterial;
  try {
    material = typeof source === "function" ? await source() : source;
  } catch (cause) {
    throw new SecretKeyError(
      `The secret key callback failed: ${cause instanceof Error ? cause.message : cause}`,
      { cause },
    );
  }
  const key = await importKey(material);
  const check = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: CHECK_IV }, key, CHECK_BLOCK),
  );
  const id = [...check.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { id, key };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * A box that seals secrets with `options.key` and opens values sealed with it or with one of
 * `options.previousKeys`. Keys load on first use (a callback is called once); the last 10,000
 * opened values are remembered, so listing the same servers again decrypts nothing. A value sealed
 * with another key, bound to another context or altered is a `SecretKeyError` naming the key
 * ids involved, never garbage.
 *
 * @example
 * ```ts
 * import { createSecretBox } from "@skillmux/core/mcp";
 * const box = createSecretBox({ key: crypto.getRandomValues(new Uint8Array(32)) });
 * const sealed = await box.seal("sk-live-123", "server-1:apiKey");
 * console.log(sealed.startsWith("enc:v1:"), sealed.includes("sk-live-123")); // true false
 * console.log(await box.open(sealed, "server-1:apiKey")); // "sk-live-123"
 * ```
 */
export function createSecretBox(options: SecretBoxOptions): SecretBox {
  let keys: Promise<LoadedKey[]> | undefined;
  // Opened values by sealed text and context: a sealed value (random IV) opens to one plain
  // text only, so listing 1,000 servers again costs no decryption.
  const opened = new Map<string, string>();
  const loaded = () => {
    keys ??= Promise.all([options.key, ...(options.previousKeys ?? [])].map(load));
    keys.catch(() => (keys = undefined)); // a failed key service call is retried next time
    return keys;
  };
  return {
    async keyId() {
      return (await loaded())[0].id;
    },
    async seal(plain, context) {
      const [{ id, key }] = await loaded();
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = new TextEncoder().encode(plain);
      const additionalData = new TextEncoder().encode(context);
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData }, key, data),
      );
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return `${PREFIX}${id}:${toBase64Url(out)}`;
    },
    async open(sealed, context) {
      const cached = opened.get(`${context}\n${sealed}`);
      if (cached !== undefined) return cached;
      const [, id, body] = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]+)$/.exec(sealed) ?? [];
      const bytes = body === undefined ? undefined : fromBase64Url(body);
      if (bytes === undefined || bytes.length < 12 + 16) {
        throw new SecretKeyError(`Cannot open the secret of ${context}: it is not a sealed value`);
      }
      const all = await loaded();
      const match = all.find((k) => k.id === id);
      if (match === undefined) {
        throw new SecretKeyError(
          `Cannot open the secret of ${context}: it was sealed with key ${id}, and this registry has key ${
            all.map((k) => k.id).join(", ")
          } (a wrong key, or a rotation that did not finish)`,
        );
      }
      try {
        const plain = await crypto.subtle.decrypt(
          {
            name: "AES-GCM",
            iv: bytes.slice(0, 12),
            additionalData: new TextEncoder().encode(context),
          },
          match.key,
          bytes.slice(12),
        );
        const text = new TextDecoder().decode(plain);
        if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
        opened.set(`${context}\n${sealed}`, text);
        return text;
      } catch (cause) {
        throw new SecretKeyError(
          `Cannot open the secret of ${context}: authentication failed (the value was altered or belongs elsewhere)`,
          { cause },
        );
      }
    },
  };
}
