// Secrets at rest: the AES-GCM box, and registries that never write a plain secret.
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
