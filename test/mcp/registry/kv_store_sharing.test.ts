// Who sees and changes what in the multi-user registry's key-value store
// (lib/mcp/registry/_kv_store.ts, and the public "../multi-user" entry), over memory storage and
// a real SDK server: a user a server is shared with sees it without its `sharedWith`, and only
// when the record confirms the share index; lookups prefer the caller's own server; sharing and
// unsharing (once per user, never with oneself, the others kept) tell the owner and the users
// concerned, as does an owner's update; the store changes only what its user owns, and the
// global store shares nothing. The store's layout and writes: kv_store.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { GLOBAL_OWNER } from "../../../lib/mcp/registry/_kv_store.ts";
import type { MultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import {
  createMultiUserRegistry,
  type UserRegistryChange,
} from "../../../lib/resolve/multi_user.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";
import { fresh, kvStore, off, populated } from "./_kv.ts";

let server: SdkServer;
let registry: MultiUserRegistry;

before(async () => {
  server = await startSdkServer({ json: true });
  ({ registry } = await populated(server.url));
});
after(() => server.close());

/** A registry over `storage` through the public "../multi-user" entry, with a key. */
function registryOn(storage = createMemoryStorage()) {
  return createMultiUserRegistry({
    storage,
    secrets: { key: new Uint8Array(32).fill(3) },
    connect: { urlPolicy: { mode: "default" } }, // the test server is on loopback
  });
}

test("a user it is shared with sees the server without its sharedWith; its owner with it", async () => {
  const bobs = (await registry.forUser("bob").list()).find((s) => s.name === "lab");
  assert.ok(bobs);
  assert.equal("sharedWith" in bobs, false);
  const owners = (await registry.forUser("a b").list()).find((s) => s.name === "lab");
  assert.deepEqual(owners?.sharedWith, ["bob"]);
  assert.equal("status" in owners!, true);
});

test("the global view lists the global servers", async () => {
  const names = (await registry.global.list()).map((s) => s.name);
  assert.ok(names.includes("company"), names.join(" "));
  assert.equal(names.includes("lab"), false);
});

test("lookups by id, name or URL prefer the caller's own server; others cannot change it", async () => {
  const { registry: r } = fresh();
  const url = `${server.url}?same`;
  const bobs = (await r.forUser("bob").add({ name: "lab", url }, off)).server;
  await r.forUser("bob").share("lab", "ada");
  const adas = (await r.forUser("ada").add({ name: "lab", url }, off)).server;
  assert.equal((await r.forUser("ada").get("lab"))?.id, adas.id);
  assert.equal((await r.forUser("ada").get(url))?.id, adas.id);
  assert.equal((await r.forUser("ada").get(bobs.id))?.id, bobs.id, "by id, the shared one");
  assert.equal(await r.forUser("carol").get(bobs.id), undefined, "not visible to carol");
  await assert.rejects(r.forUser("ada").update(bobs.id, { description: "mine now" }, off));
  await assert.rejects(r.forUser("ada").remove(bobs.id));
  assert.equal((await r.forUser("bob").get("lab"))?.description, undefined);
});

test("sharing: once per user, revision up once; unsharing removes the index; never with oneself", async () => {
  const { store, registry: r } = fresh();
  const ada = r.forUser("ada");
  const lab = (await ada.add({ name: "lab", url: `${server.url}?lab` }, off)).server;
  const shared = await ada.share("lab", "bob");
  assert.equal(shared.revision, lab.revision! + 1);
  assert.equal((await ada.share("lab", "bob")).revision, shared.revision, "already shared");
  assert.deepEqual((await ada.get("lab"))?.sharedWith, ["bob"]);
  await assert.rejects(ada.share("lab", "ada"), /always visible to its owner/);
  await ada.unshare("lab", "bob");
  assert.deepEqual(await store.keys("registry/shares/"), []);
  assert.deepEqual((await ada.get("lab"))?.sharedWith, []);
  assert.equal(await r.forUser("bob").get("lab"), undefined);
});

test("unsharing one user keeps the others; sharing, unsharing and removing tell owner and users", async () => {
  const { registry: r } = fresh();
  const heard: unknown[] = [];
  r.onChange((change) => heard.push(change));
  const ada = r.forUser("ada");
  const { server: lab } = await ada.add({ name: "lab", url: `${server.url}?u` }, off);
  await ada.share("lab", "bob");
  await ada.share("lab", "carol");
  await ada.unshare("lab", "bob");
  assert.deepEqual((await ada.get("lab"))?.sharedWith, ["carol"]);
  assert.equal((await r.forUser("carol").get("lab"))?.id, lab.id);
  await ada.remove("lab");
  assert.deepEqual(heard, [
    { id: lab.id, users: ["ada"] },
    { id: lab.id, users: ["ada", "bob"] },
    { id: lab.id, users: ["ada", "carol"] },
    { id: lab.id, users: ["ada", "bob"] },
    { id: lab.id, users: ["ada", "carol"] },
  ]);
});

test("the store changes only what its user owns (another's server, or one gone, is not found, and a refused share leaves nothing); the global store shares nothing", async () => {
  const storage = createMemoryStorage();
  const ada = kvStore(storage, "ada");
  const bob = kvStore(storage, "bob");
  const [lab] = await ada.insert([{ name: "lab", url: `${server.url}?kv` }], false);
  const notFound = {
    name: "PolicyError",
    message: `No server matches "${lab.id}" (by id, name or URL)`,
  };
  await assert.rejects(bob.modify(lab.id, (s) => ({ ...s, description: "bob's" })), notFound);
  await assert.rejects(bob.remove(lab.id), notFound);
  // A refused share leaves no index entry behind.
  await assert.rejects(bob.share(lab.id, "carol", true), notFound);
  assert.deepEqual(await storage.keys("kv/shares/"), []);
  assert.equal((await ada.lookup(lab.id))?.server.description, undefined);
  await ada.remove(lab.id);
  await assert.rejects(ada.modify(lab.id, (s) => s), notFound);
  await assert.rejects(ada.remove(lab.id), notFound);
  await assert.rejects(ada.share(lab.id, "bob", false), notFound);
  // A status for a server removed meanwhile (a ping that ran during the removal) writes nothing.
  await ada.setStatus(lab, { ok: true, at: new Date().toISOString(), via: "ping" });
  assert.deepEqual(await storage.keys("kv/"), []);
  // The global store has nothing to share: every user sees its servers.
  const global = kvStore(storage, GLOBAL_OWNER);
  const [g] = await global.insert([{ name: "g", url: `${server.url}?kvg` }], false);
  await assert.rejects(global.share(g.id, "bob", true), {
    name: "PolicyError",
    message: "Global servers are visible to every user; there is nothing to share",
  });
  assert.deepEqual((await global.lookup(g.id))?.server.sharedWith, []);
  assert.deepEqual(await storage.keys("kv/shares/"), []);
});

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
