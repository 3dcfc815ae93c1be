// The secret box, rules no test held under mutation: a sealed value is recognised by its exact
// form only (prefix at the start, key id and body of their alphabets to the end), the shortest
// sealed value (an empty secret) opens, values sealed with a previous key open while new ones use
// the current key, a failed key callback is asked again next time, and a CryptoKey of another
// algorithm is refused, opened values are remembered per context (10,000 of them, oldest out
// first), errors keep their cause, and a wrong key is told every key id the box holds. Through the
// public sealing API with real Web Crypto.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createSecretBox, isSealedSecret } from "../../../lib/mcp/sealing/secrets.ts";

const key = (fill: number) => new Uint8Array(32).fill(fill);

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
