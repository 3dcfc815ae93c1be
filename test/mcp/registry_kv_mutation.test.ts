// The multi-user registry's key-value layout and record checks (lib/mcp/registry/_kv_store.ts;
// survivors of the first `registry` run), over memory storage and a real SDK server: the keys are
// the documented layout (`servers/<id>.json`, `owners/<URI-encoded user>/<id>`, `global/<id>`,
// `shares/<user>/<id>`); an index entry that is not an id, even with a record behind it, is not
// listed; a value under a record key that is not a record of this registry is an error naming
// the key; a user a server is shared with sees it without its `sharedWith`; and the global view
// lists the global servers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { parseRecord } from "../../lib/mcp/registry/_kv_store.ts";
import { createMultiUserRegistry, type MultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import type { Storage } from "../../lib/storage/types.ts";
import { type SdkServer, startSdkServer } from "./_servers.ts";

let server: SdkServer;
let storage: Storage;
let registry: MultiUserRegistry;
let labId: string;
let companyId: string;

before(async () => {
  server = await startSdkServer({ json: true });
  storage = createMemoryStorage();
  registry = createMultiUserRegistry({
    storage,
    secrets: { key: new Uint8Array(32).fill(4) },
    connect: { urlPolicy: { mode: "default" } },
  });
  companyId = (await registry.global.add({ name: "company", url: server.url })).server.id;
  labId = (await registry.forUser("a b").add({ name: "lab", url: server.url })).server.id;
  await registry.forUser("a b").share("lab", "bob");
});
after(() => server.close());

test("the keys are the documented layout", async () => {
  const keys = await storage.keys("registry/");
  for (
    const key of [
      `registry/servers/${labId}.json`,
      `registry/servers/${companyId}.json`,
      `registry/owners/a%20b/${labId}`,
      `registry/global/${companyId}`,
      `registry/shares/bob/${labId}`,
    ]
  ) assert.ok(keys.includes(key), `${key} in ${keys.join(" ")}`);
});

test("an index entry that is not an id is not listed, even with a record behind it", async () => {
  const record = JSON.parse((await storage.get(`registry/servers/${labId}.json`))!);
  for (const stray of [`x${labId}`, `${labId}x`]) {
    await storage.set(
      `registry/servers/${stray}.json`,
      JSON.stringify({ ...record, id: stray, server: { ...record.server, name: stray } }),
    );
    await storage.set(`registry/owners/a%20b/${stray}`, "");
  }
  const names = (await registry.forUser("a b").list()).map((s) => s.name);
  assert.deepEqual(names.filter((n) => n.includes(labId)), []);
  assert.ok(names.includes("lab"));
});

test("a value that is not a record of this registry is an error naming its key", () => {
  const good = { v: 1, id: "s-1", server: { name: "x" } };
  assert.equal(parseRecord(JSON.stringify(good), "k").id, "s-1");
  for (
    const bad of [
      null,
      { ...good, v: 2 },
      { ...good, id: 7 },
      { ...good, server: "x" },
      { v: 1 },
    ]
  ) {
    assert.throws(
      () => parseRecord(JSON.stringify(bad), "registry/servers/k.json"),
      /^Error: Storage key "registry\/servers\/k\.json" does not hold a server record of this registry$/,
      JSON.stringify(bad),
    );
  }
});

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

/** A registry of its own, over fresh memory storage, for the tests that change servers. */
function fresh() {
  const store = createMemoryStorage();
  return {
    store,
    registry: createMultiUserRegistry({
      storage: store,
      secrets: { key: new Uint8Array(32).fill(9) },
      connect: { urlPolicy: { mode: "default" } },
    }),
  };
}
const off = { discover: false } as const;

test("a user's list: owned first, then shared with them, then global, each in creation order", async () => {
  const { registry: r } = fresh();
  await r.global.add({ name: "g1", url: `${server.url}?g1` }, off);
  await r.forUser("ada").add({ name: "a2", url: `${server.url}?a2` }, off);
  await r.forUser("bob").add({ name: "b1", url: `${server.url}?b1` }, off);
  await r.forUser("ada").add({ name: "a1", url: `${server.url}?a1` }, off);
  await r.forUser("bob").share("b1", "ada");
  const names = (await r.forUser("ada").list()).map((s) => s.name).filter((n) =>
    n !== "builtin-skills"
  );
  assert.deepEqual(names, ["a2", "a1", "b1", "g1"]);
});

test("the order holds on a store that lists keys in any order (Redis scans do)", async () => {
  const inner = createMemoryStorage();
  const reversed = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "keys") {
        return async (...args: Parameters<Storage["keys"]>) =>
          (await inner.keys(...args)).reverse();
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Storage;
  const r = createMultiUserRegistry({
    storage: reversed,
    secrets: { key: new Uint8Array(32).fill(8) },
    connect: { urlPolicy: { mode: "default" } },
  });
  for (const name of ["g1", "g2"]) await r.global.add({ name, url: `${server.url}?${name}` }, off);
  for (const name of ["a1", "a2"]) {
    await r.forUser("ada").add({ name, url: `${server.url}?${name}` }, off);
  }
  await r.forUser("bob").add({ name: "b1", url: `${server.url}?b1` }, off);
  await r.forUser("bob").share("b1", "ada");
  const names = (await r.forUser("ada").list()).map((s) => s.name).filter((n) =>
    n !== "builtin-skills"
  );
  assert.deepEqual(names, ["a1", "a2", "b1", "g1", "g2"]);
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

test("an update: the revision goes up by one, a stale revision is refused by name, a rename may not clash", async () => {
  const { registry: r } = fresh();
  const ada = r.forUser("ada");
  const one = (await ada.add({ name: "one", url: `${server.url}?1` }, off)).server;
  await ada.add({ name: "two", url: `${server.url}?2` }, off);
  const updated = (await ada.update("one", { description: "first" }, off)).server;
  assert.equal(updated.revision, one.revision! + 1);
  await assert.rejects(
    ada.update("one", { description: "again" }, { ...off, ifRevision: one.revision }),
    (e: Error & { server?: string }) => {
      assert.equal(e.name, "ConflictError");
      assert.equal(
        e.message,
        `Server "one" changed: it is at revision ${updated.revision}, not ${one.revision}`,
      );
      assert.equal(e.server, "one");
      return true;
    },
  );
  await assert.rejects(ada.update("one", { name: "two" }, off), /two/);
  const moved = (await ada.update("one", { url: `${server.url}?moved` }, off)).server;
  assert.equal(moved.name, "one", "a new URL does not clash with the server's own name");
  assert.equal((await ada.get("one"))?.revision, moved.revision, "the clash saved nothing");
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

test("removing a server removes its record, owner and share index and cached discovery", async () => {
  const { store, registry: r } = fresh();
  const ada = r.forUser("ada");
  const lab = (await ada.add({ name: "lab", url: server.url })).server;
  await ada.share("lab", "bob");
  assert.ok((await store.keys("registry/")).some((k) => k.includes("cache/")));
  await ada.remove("lab");
  const left = (await store.keys("registry/")).filter((k) => k.includes(lab.id));
  assert.deepEqual(left, []);
});

test("import with replace changes the server of that name in place; without, it is refused", async () => {
  const { registry: r } = fresh();
  const ada = r.forUser("ada");
  const lab = (await ada.add({ name: "lab", url: `${server.url}?old` }, off)).server;
  const [replaced] = await ada.import([{ name: "lab", url: `${server.url}?new` }], {
    replace: true,
  });
  assert.equal(replaced.id, lab.id);
  assert.equal(replaced.url, `${server.url}?new`);
  await assert.rejects(ada.import([{ name: "lab", url: `${server.url}?third` }]), /lab/);
  assert.equal((await ada.list()).filter((s) => s.name === "lab").length, 1);
});
