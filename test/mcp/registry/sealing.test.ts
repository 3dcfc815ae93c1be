// Sealed server secrets in the multi-user registry (lib/mcp/registry/_sealing.ts), over memory
// storage and a real SDK server: each sealed value is bound to its server and field, so a sealed
// API key moved into a header (or one header's value into another), or copied into another
// server's record, no longer opens, and the error names the server without the secret; a server
// without an API key gets none; a registry without a key cannot open what was sealed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";

let server: SdkServer;
before(async () => (server = await startSdkServer({ json: true })));
after(() => server.close());

const key = new Uint8Array(32).fill(11);
const off = { discover: false } as const;

async function setup() {
  const storage = createMemoryStorage();
  const registry = createMultiUserRegistry({
    storage,
    secrets: { key },
    connect: { urlPolicy: { mode: "default" } },
  });
  const { server: lab } = await registry.forUser("ada").add({
    name: "lab",
    url: server.url,
    apiKey: "sk-lab",
    headers: { "X-One": "one", "X-Two": "two" },
  }, off);
  const recordKey = `registry/servers/${lab.id}.json`;
  const record = JSON.parse((await storage.get(recordKey))!);
  return { storage, registry, recordKey, record };
}

test("a sealed value moved to another field no longer opens; the error names the server", async () => {
  const { storage, registry, recordKey, record } = await setup();
  assert.notEqual(record.server.apiKey, "sk-lab", "sealed at rest");
  const moved = structuredClone(record);
  moved.server.headers["X-One"] = record.server.apiKey;
  await storage.set(recordKey, JSON.stringify(moved));
  await assert.rejects(registry.forUser("ada").list(), (e: Error & { server?: string }) => {
    assert.equal(e.name, "SecretKeyError");
    assert.match(e.message, /^Server "lab": /);
    assert.equal(e.server, "lab");
    return true;
  });
  const swapped = structuredClone(record);
  swapped.server.headers = {
    "X-One": record.server.headers["X-Two"],
    "X-Two": record.server.headers["X-One"],
  };
  await storage.set(recordKey, JSON.stringify(swapped));
  await assert.rejects(registry.forUser("ada").list(), { name: "SecretKeyError" });
  await storage.set(recordKey, JSON.stringify(record));
  const [lab] = await registry.forUser("ada").list();
  assert.deepEqual([lab.apiKey, lab.headers], ["sk-lab", { "X-One": "one", "X-Two": "two" }]);
});

test("a server without an API key gets none", async () => {
  const { registry } = await setup();
  const { server: plain } = await registry.forUser("bob").add(
    { name: "plain", url: `${server.url}?plain` },
    off,
  );
  assert.equal("apiKey" in plain, false);
  assert.equal("apiKey" in (await registry.forUser("bob").get("plain"))!, false);
});

test("a registry without the key cannot open a sealed secret, and names the server", async () => {
  const { storage } = await setup();
  const keyless = createMultiUserRegistry({ storage, connect: { urlPolicy: { mode: "default" } } });
  await assert.rejects(keyless.forUser("ada").list(), (e: Error & { server?: string }) => {
    assert.equal(e.name, "SecretKeyError");
    assert.match(e.message, /server "lab" \(s-[0-9a-z-]+:apiKey\): it is encrypted/);
    assert.equal(e.server, "lab");
    return true;
  });
});

/** A multi-user registry over `storage` with the test key; the test server is on loopback. */
function registryOn(storage = createMemoryStorage()) {
  return createMultiUserRegistry({
    storage,
    secrets: { key },
    connect: { urlPolicy: { mode: "default" } },
  });
}

test("a sealed secret copied into another server's record does not open there", async () => {
  const storage = createMemoryStorage();
  const registry = registryOn(storage);
  const ada = registry.forUser("ada");
  const mallory = registry.forUser("mallory");
  const { server: a } = await ada.add({ name: "a", url: server.url, apiKey: "sk-ada-secret" }, {
    discover: false,
  });
  const { server: m } = await mallory.add(
    { name: "m", url: `${server.url}?m`, apiKey: "sk-mallory" },
    { discover: false },
  );
  const recordKey = (id: string) => `registry/servers/${id}.json`;
  const sealed = JSON.parse((await storage.get(recordKey(a.id)))!).server.apiKey as string;
  assert.match(sealed, /^enc:v1:/);
  const target = JSON.parse((await storage.get(recordKey(m.id)))!);
  target.server.apiKey = sealed;
  await storage.set(recordKey(m.id), JSON.stringify(target));
  const error = await mallory.get(m.id).then(
    (s) => new Error(`opened: ${s?.apiKey}`),
    (e: Error) => e,
  );
  assert.equal(error.name, "SecretKeyError", String(error));
  assert.doesNotMatch(error.message, /sk-ada-secret/);
  assert.equal((await ada.get("a"))?.apiKey, "sk-ada-secret", "the original still opens");
});
