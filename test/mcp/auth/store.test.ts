// The OAuth store on a storage (lib/mcp/auth/store.ts): one key per resource (the first 16 bytes of
// its SHA-256, in hex), each secret sealed for its resource and field (moved to another, it does
// not open), and records with only some secrets (no refresh token, no client, no tokens) written
// and read back whole. On memory storage with a real secret box.
// Folded from oauth_store_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { createOAuthStore } from "../../../lib/mcp/auth/store.ts";
import { createSecretBox } from "../../../lib/mcp/sealing/secrets.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { OAuthRecord } from "../../../lib/mcp/auth/types.ts";

const A = "https://a.example.com/mcp";
const B = "https://b.example.com/mcp";
const box = () => createSecretBox({ key: new Uint8Array(32).fill(9) });
const keyFor = (resource: string, prefix = "oauth/") =>
  `${prefix}${createHash("sha256").update(resource).digest("hex").slice(0, 32)}.json`;

const full: OAuthRecord = {
  issuer: "https://as.example.com",
  client: { clientId: "c", clientSecret: "cs-1", kind: "dynamic" },
  tokens: { accessToken: "at-1", refreshToken: "rt-1" },
};

test("one key per resource: the prefix and the first 16 bytes of its SHA-256 in hex", async () => {
  const storage = createMemoryStorage();
  await createOAuthStore(storage).set(A, full);
  await createOAuthStore(storage, { prefix: "tenants/x/" }).set(B, full);
  assert.deepEqual((await storage.keys()).sort(), [keyFor(A), keyFor(B, "tenants/x/")].sort());
  assert.equal(JSON.parse((await storage.get(keyFor(A)))!).resource, A);
});

test("sealed secrets are bound to their resource and field", async () => {
  const storage = createMemoryStorage();
  const store = createOAuthStore(storage, { box: box() });
  await store.set(A, full);
  await store.set(B, { ...full, tokens: { accessToken: "at-2", refreshToken: "rt-2" } });
  const stored = await storage.get(keyFor(A));
  for (const secret of ["at-1", "rt-1", "cs-1"]) assert.equal(stored!.includes(secret), false);
  assert.deepEqual(await store.get(A), full);
  const a = JSON.parse((await storage.get(keyFor(A)))!);
  const b = JSON.parse((await storage.get(keyFor(B)))!);
  // A's access token copied into B's record, or into A's own refresh token: neither opens.
  await storage.set(
    keyFor(B),
    JSON.stringify({ ...b, tokens: { ...b.tokens, accessToken: a.tokens.accessToken } }),
  );
  assert.equal((await store.get(B).catch((e) => e)).name, "SecretKeyError");
  await storage.set(
    keyFor(A),
    JSON.stringify({ ...a, tokens: { ...a.tokens, refreshToken: a.tokens.accessToken } }),
  );
  assert.equal((await store.get(A).catch((e) => e)).name, "SecretKeyError");
  await storage.set(
    keyFor(A),
    JSON.stringify({ ...a, client: { ...a.client, clientSecret: a.tokens.accessToken } }),
  );
  assert.equal((await store.get(A).catch((e) => e)).name, "SecretKeyError");
});

test("records with only some secrets are written and read back whole", async () => {
  const store = createOAuthStore(createMemoryStorage(), { box: box() });
  const partial: OAuthRecord[] = [
    { issuer: "https://as.example.com", tokens: { accessToken: "at-only" } },
    { issuer: "https://as.example.com", client: { clientId: "pub", kind: "dynamic" } },
    {
      issuer: "https://as.example.com",
      client: { clientId: "c", clientSecret: "cs", kind: "pre-registered" },
    },
  ];
  for (const record of partial) {
    await store.set(A, record);
    assert.deepEqual(await store.get(A), record);
  }
  await store.delete(A);
  assert.equal(await store.get(A), undefined);
});

test("each field is sealed for the context oauth:<resource>:<field>", async () => {
  const storage = createMemoryStorage();
  const sealer = box();
  const seal = (value: string, field: string) => sealer.seal(value, `oauth:${A}:${field}`);
  await storage.set(
    keyFor(A),
    JSON.stringify({
      resource: A,
      issuer: full.issuer,
      client: { ...full.client, clientSecret: await seal("cs-1", "clientSecret") },
      tokens: {
        accessToken: await seal("at-1", "accessToken"),
        refreshToken: await seal("rt-1", "refreshToken"),
      },
    }),
  );
  assert.deepEqual(await createOAuthStore(storage, { box: box() }).get(A), full);
});
