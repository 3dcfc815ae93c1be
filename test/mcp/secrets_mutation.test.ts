// The secret box, rules no test held under mutation: a sealed value is recognised by its exact
// form only (prefix at the start, key id and body of their alphabets to the end), the shortest
// sealed value (an empty secret) opens, values sealed with a previous key open while new ones use
// the current key, a failed key callback is asked again next time, and a CryptoKey of another
// algorithm is refused. Through the public sealing API with real Web Crypto.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createSecretBox, isSealedSecret } from "../../lib/mcp/sealing/secrets.ts";

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
