// Rules of the multi-user registry (issue 19), through the public "../multi-user" entry on a real
// storage and real MCP servers on 127.0.0.1: updates are announced to the users a server is
// shared with, a share-index entry the record does not confirm shows nothing, and a sealed secret
// opens only in the record it was sealed for.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  createMultiUserRegistry,
  type UserRegistryChange,
} from "../../../lib/resolve/multi_user.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";

const KEY = new Uint8Array(32).fill(3);

let server: SdkServer;
before(async () => {
  server = await startSdkServer({ json: true });
});
after(async () => {
  await server.close();
});

function registryOn(storage = createMemoryStorage()) {
  return createMultiUserRegistry({
    storage,
    secrets: { key: KEY },
    connect: { urlPolicy: { mode: "default" } }, // the test server is on loopback
  });
}

test("an owner's update of a shared server is announced to the users it is shared with", async () => {
  const registry = registryOn();
  const ada = registry.forUser("ada");
  const lab = await ada.add({ name: "lab", url: server.url }, { discover: false });
  await ada.share("lab", "carol");
  await ada.share("lab", "dave");
  const changes: UserRegistryChange[] = [];
  const stop = registry.onChange((change) => changes.push(change));
  try {
    await ada.update("lab", { description: "The lab's server, moved" });
  } finally {
    stop();
  }
  assert.equal(changes.length, 1);
  assert.equal(changes[0].id, lab.server.id);
  assert.deepEqual([...changes[0].users as string[]].sort(), ["ada", "carol", "dave"]);
});

test("a share-index entry that the record's sharedWith does not confirm shows nothing", async () => {
  const storage = createMemoryStorage();
  const registry = registryOn(storage);
  const ada = registry.forUser("ada");
  const { server: lab } = await ada.add({ name: "lab", url: server.url, apiKey: "sk-ada" }, {
    discover: false,
  });
  // A stale or forged index entry: carol is listed under shares/, the record does not say so.
  await storage.set(`registry/shares/carol/${lab.id}`, "");
  const carol = registry.forUser("carol");
  assert.equal((await carol.list()).some((s) => s.id === lab.id), false);
  assert.equal((await carol.connectable()).some((s) => s.id === lab.id), false);
  assert.equal(await carol.get(lab.id), undefined);
  // The real share shows it; the index alone never did.
  await ada.share("lab", "carol");
  assert.equal((await carol.list()).some((s) => s.id === lab.id), true);
});

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
