// Secrets at rest (lib/mcp/sealing/secrets.ts), with real Web Crypto: the AES-GCM box (a fresh
// IV, opened only with the key and the context it was sealed for; keys of 32 bytes, a CryptoKey
// or a callback; the exact sealed form, previous keys, the per-context cache of opened values,
// errors that keep their cause and name the box's keys), and registries that never write a plain
// secret (multi-user storage, rotation, config.toml).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { createSecretBox, isSealedSecret } from "../../../lib/mcp/sealing/secrets.ts";
import { createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";

const key = (fill: number) => new Uint8Array(32).fill(fill);
const SECRETS = ["sk-live-api-key-1", "header-value-secret-2"];

/** Every key and value in `storage`, as one text to scan. */
async function everything(storage: Storage): Promise<string> {
  const parts: string[] = [];
  for (const k of await storage.keys()) parts.push(k, (await storage.get(k)) ?? "");
  return parts.join("\n");
}

async function addTwo(registry: ReturnType<typeof createMultiUserRegistry>) {
  const ada = registry.forUser("ada");
  await ada.add({
    name: "one",
    url: "https://one.example.com/mcp",
    apiKey: SECRETS[0],
    headers: { "X-Token": SECRETS[1] },
  }, { discover: false });
  await registry.global.add(
    { name: "two", url: "https://two.example.com/mcp", apiKey: SECRETS[0] },
    {
      discover: false,
    },
  );
}

describe("secret box", () => {
  test("seals with a fresh IV, opens only with the key and the context it was sealed for", async () => {
    const box = createSecretBox({ key: key(1) });
    const a = await box.seal("sk-123", "s1:apiKey");
    const b = await box.seal("sk-123", "s1:apiKey");
    assert.notEqual(a, b);
    assert.ok(isSealedSecret(a) && !a.includes("sk-123"));
    assert.equal(await box.open(a, "s1:apiKey"), "sk-123");
    const moved = await box.open(a, "s2:apiKey").catch((e) => e);
    assert.equal(moved.name, "SecretKeyError");
    assert.match(moved.message, /authentication failed/);
    const wrong = await createSecretBox({ key: key(2) }).open(a, "s1:apiKey").catch((e) => e);
    assert.equal(wrong.name, "SecretKeyError");
    assert.match(
      wrong.message,
      /sealed with key [0-9a-f]{8}, and this registry has key [0-9a-f]{8}/,
    );
    const tampered = a.slice(0, -4) + (a.endsWith("AAAA") ? "BBBB" : "AAAA");
    assert.equal((await box.open(tampered, "s1:apiKey").catch((e) => e)).name, "SecretKeyError");
    assert.equal((await box.open("enc:v1:zz", "s1:apiKey").catch((e) => e)).name, "SecretKeyError");
  });

  test("keys: 32 bytes, a CryptoKey, or a callback called once", async () => {
    await assert.rejects(createSecretBox({ key: new Uint8Array(31) }).keyId(), /32 bytes/);
    const cryptoKey = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
    const box = createSecretBox({ key: cryptoKey });
    assert.equal(await box.open(await box.seal("x", "c"), "c"), "x");
    let calls = 0;
    const service = createSecretBox({ key: () => (calls++, Promise.resolve(key(3))) });
    await service.open(await service.seal("y", "c"), "c");
    await service.seal("z", "c");
    assert.equal(calls, 1);
    const down = createSecretBox({ key: () => Promise.reject(new Error("KMS unreachable")) });
    const error = await down.seal("x", "c").catch((e) => e);
    assert.equal(error.name, "SecretKeyError");
    assert.match(error.message, /KMS unreachable/);
  });
});

describe("registries keep secrets sealed", () => {
  test("multi-user: no plain secret anywhere in storage; a wrong key is a clear error", async () => {
    const storage = createMemoryStorage();
    const registry = createMultiUserRegistry({ storage, secrets: { key: key(1) } });
    await addTwo(registry);
    const written = await everything(storage);
    for (const secret of SECRETS) assert.equal(written.includes(secret), false, secret);
    assert.match(written, /enc:v1:/);
    assert.equal((await registry.forUser("ada").get("one"))?.apiKey, SECRETS[0]);

    const wrong = createMultiUserRegistry({ storage, secrets: { key: key(9) } });
    const error = await wrong.forUser("ada").list().catch((e) => e);
    assert.equal(error.name, "SecretKeyError");
    assert.match(error.message, /Server "one"/);
    assert.doesNotMatch(error.message, /sk-live/);
    const none = await createMultiUserRegistry({ storage }).forUser("ada").list().catch((e) => e);
    assert.match(none.message, /encrypted, and this registry has no key/);
  });

  test("rotation re-encrypts everything, plain records included", async () => {
    const storage = createMemoryStorage();
    await addTwo(createMultiUserRegistry({ storage })); // written before encryption was on
    assert.equal((await everything(storage)).includes(SECRETS[0]), true);
    const registry = createMultiUserRegistry({ storage, secrets: { key: key(1) } });
    const first = await registry.rotateSecrets(key(1));
    assert.equal(first.servers, 2);
    const sealedOnce = await everything(storage);
    for (const secret of SECRETS) assert.equal(sealedOnce.includes(secret), false, secret);
    const second = await registry.rotateSecrets(key(2));
    assert.notEqual(second.keyId, first.keyId);
    assert.equal((await registry.forUser("ada").get("one"))?.headers?.["X-Token"], SECRETS[1]);
    const rotated = await everything(storage);
    assert.equal(rotated.includes(`enc:v1:${first.keyId}`), false, "no value left on the old key");
    const fresh = createMultiUserRegistry({ storage, secrets: { key: key(2) } });
    assert.equal((await fresh.forUser("ada").get("one"))?.apiKey, SECRETS[0]);
    const old = createMultiUserRegistry({ storage, secrets: { key: key(1) } });
    assert.equal((await old.forUser("ada").list().catch((e) => e)).name, "SecretKeyError");
  });

  test("config.toml with a key: the file holds no plain secret and reads back", async () => {
    const root = await mkdtemp(join(tmpdir(), "skillmux-secrets-"));
    try {
      const storage = createFsStorage({ root, private: true });
      const registry = createServerRegistry({ storage, secrets: { key: key(4) } });
      await registry.add({
        name: "docs",
        url: "https://docs.example.com/mcp",
        apiKey: SECRETS[0],
        headers: { "X-Token": SECRETS[1] },
      }, { discover: false });
      const text = await readFile(join(root, "config.toml"), "utf8");
      for (const secret of SECRETS) assert.equal(text.includes(secret), false, secret);
      assert.match(text, /api_key = "enc:v1:/);
      assert.equal((await registry.get("docs"))?.headers?.["X-Token"], SECRETS[1]);
      const keyless = await createServerRegistry({ storage }).list().catch((e) => e);
      assert.equal(keyless.name, "SecretKeyError");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("secret box: the sealed form, keys, cache and errors", () => {
  test("only the exact sealed form is opened; an empty secret opens", async () => {
    const box = createSecretBox({ key: key(1) });
    const sealed = await box.seal("", "s:apiKey");
    assert.match(sealed, /^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    assert.equal(await box.open(sealed, "s:apiKey"), "", "12-byte IV and 16-byte tag, no text");
    const bad = [`x${sealed}`, `${sealed}.`, `${sealed}\n`, sealed.replace("enc:v1:", "enc:v2:")];
    const fresh = createSecretBox({ key: key(1) });
    for (const text of bad) {
      const error = await fresh.open(text, "s:apiKey").catch((e) => e);
      assert.equal(error?.name, "SecretKeyError", text);
      assert.equal(error.message, "Cannot open the secret of s:apiKey: it is not a sealed value");
    }
    const short = `enc:v1:${sealed.split(":")[2]}:${"A".repeat(36)}`; // 27 bytes
    const error = await fresh.open(short, "s:apiKey").catch((e) => e);
    assert.equal(error?.message, "Cannot open the secret of s:apiKey: it is not a sealed value");
    assert.equal(isSealedSecret(sealed), true);
    assert.equal(isSealedSecret(`x${sealed}`), false);
    assert.equal(isSealedSecret(7), false);
  });

  test("a previous key opens what it sealed; the current key seals and names the box", async () => {
    const old = createSecretBox({ key: key(1) });
    const sealedOld = await old.seal("sk-old", "s:apiKey");
    const rotated = createSecretBox({ key: key(2), previousKeys: [key(1)] });
    assert.equal(await rotated.open(sealedOld, "s:apiKey"), "sk-old");
    const current = createSecretBox({ key: key(2) });
    assert.equal(await rotated.keyId(), await current.keyId());
    assert.notEqual(await rotated.keyId(), await old.keyId());
    for (let fill = 0; fill < 16; fill++) {
      const id = await createSecretBox({ key: key(fill) }).keyId();
      assert.match(id, /^[0-9a-f]{8}$/, `key id ${id}: four bytes, two digits each`);
    }
    const sealedNew = await rotated.seal("sk-new", "s:apiKey");
    assert.ok(sealedNew.startsWith(`enc:v1:${await current.keyId()}:`));
    assert.equal(await current.open(sealedNew, "s:apiKey"), "sk-new");
    const error = await old.open(sealedNew, "s:apiKey").catch((e) => e);
    assert.match(error.message, new RegExp(`this registry has key ${await old.keyId()} \\(`));
  });

  test("a key callback that failed is asked again; a CryptoKey of another algorithm is refused", async () => {
    let calls = 0;
    const box = createSecretBox({
      key: () => (++calls === 1 ? Promise.reject(new Error("KMS down")) : Promise.resolve(key(4))),
    });
    const first = await box.seal("x", "c").catch((e) => e);
    assert.match(first.message, /^The secret key callback failed: KMS down$/);
    assert.equal(await box.open(await box.seal("x", "c"), "c"), "x");
    assert.equal(calls, 2);
    const cbc = await crypto.subtle.generateKey({ name: "AES-CBC", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
    await assert.rejects(
      createSecretBox({ key: cbc }).keyId(),
      /A secret key must be 32 bytes or an AES-GCM CryptoKey/,
    );
    await assert.rejects(
      createSecretBox({ key: "k".repeat(32) as never }).keyId(),
      /A secret key must be 32 bytes or an AES-GCM CryptoKey/,
    );
  });

  /** Run `body` counting the calls of crypto.subtle.decrypt (restored after). */
  async function countingDecrypts(body: (count: () => number) => Promise<void>): Promise<void> {
    const subtle = crypto.subtle as unknown as { decrypt: SubtleCrypto["decrypt"] };
    const original = subtle.decrypt;
    let calls = 0;
    subtle.decrypt = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto["decrypt"]>) {
      calls++;
      return original.apply(this, args);
    };
    try {
      await body(() => calls);
    } finally {
      delete (subtle as { decrypt?: unknown }).decrypt; // back to the prototype's method
      if (crypto.subtle.decrypt !== original) subtle.decrypt = original;
    }
  }

  test("an opened value is remembered per context; the 10,001st pushes out the oldest", async () => {
    const box = createSecretBox({ key: key(5) });
    const sealed: string[] = [];
    for (let i = 0; i <= 10_000; i++) sealed.push(await box.seal(`v${i}`, "s:apiKey"));
    await countingDecrypts(async (count) => {
      assert.equal(await box.open(sealed[0], "s:apiKey"), "v0");
      assert.equal(await box.open(sealed[0], "s:apiKey"), "v0");
      assert.equal(count(), 1, "opened again from memory");
      const other = await box.open(sealed[0], "t:apiKey").catch((e) => e);
      assert.equal(other.name, "SecretKeyError", "another context is not served from memory");
      assert.equal(count(), 2);
      for (let i = 1; i < 10_000; i++) await box.open(sealed[i], "s:apiKey"); // 10,000 held
      await box.open(sealed[10_000], "s:apiKey"); // the oldest (v0) goes
      const before = count();
      assert.equal(await box.open(sealed[1], "s:apiKey"), "v1");
      assert.equal(await box.open(sealed[10_000], "s:apiKey"), "v10000");
      assert.equal(count(), before, "v1 and v10000 are still held");
      assert.equal(await box.open(sealed[0], "s:apiKey"), "v0");
      assert.equal(count(), before + 1, "v0 was pushed out");
    });
  });

  test("errors keep their cause; a wrong key names every key the box holds", async () => {
    const failing = createSecretBox({
      key: () => Promise.reject(new Error("vault down")),
    });
    const callback = await failing.seal("x", "s:apiKey").catch((e) => e);
    assert.equal(callback.name, "SecretKeyError");
    assert.equal(callback.message, "The secret key callback failed: vault down");
    assert.equal(callback.cause?.message, "vault down");

    const box = createSecretBox({ key: key(1) });
    const sealed = await box.seal("x", "s:apiKey");
    const moved = await box.open(sealed, "t:apiKey").catch((e) => e);
    assert.ok(moved.cause instanceof Error, "the Web Crypto error is kept as the cause");

    const other = createSecretBox({ key: key(2), previousKeys: [key(3)] });
    const ids = [
      await other.keyId(),
      await createSecretBox({ key: key(3) }).keyId(),
    ];
    const wrong = await other.open(sealed, "s:apiKey").catch((e) => e);
    assert.equal(
      wrong.message,
      `Cannot open the secret of s:apiKey: it was sealed with key ${await box
        .keyId()}, and this registry has key ${ids[0]}, ${
        ids[1]
      } (a wrong key, or a rotation that did not finish)`,
    );
  });
});
