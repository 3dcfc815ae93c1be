// The multi-user registry's key-value layout and record checks (lib/mcp/registry/_kv_store.ts;
// survivors of the first `registry` run), over memory storage and a real SDK server: the keys are
// the documented layout (`servers/<id>.json`, `owners/<URI-encoded user>/<id>`, `global/<id>`,
// `shares/<user>/<id>`); an index entry that is not an id, even with a record behind it, is not
// listed; a value under a record key that is not a record of this registry is an error naming
// the key; a user a server is shared with sees it without its `sharedWith`; and the global view
// lists the global servers. From the second run's survivors: index entries hold nothing; a stale
// entry without a record is skipped and an id in two indexes listed once; a never-checked server
// has no status and a shared one reaches `connectable()` without `sharedWith`; unsharing one user
// keeps the others and every share, unshare and removal tells the owner and the users concerned;
// a new URL may not be another owned server's; an import is checked in order (its own duplicates,
// a replaced server's freed URL, a new name beside the others with `replace`); by id a server is
// read without listing an index; the store itself refuses a server another user owns or one gone,
// and sharing from the global store; a change that keeps losing the compare-and-set names the
// server.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createKvStore, GLOBAL_OWNER, parseRecord } from "../../../lib/mcp/registry/_kv_store.ts";
import {
  createMultiUserRegistry,
  type MultiUserRegistry,
} from "../../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";

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
  for (
    const index of [
      `registry/owners/a%20b/${labId}`,
      `registry/global/${companyId}`,
      `registry/shares/bob/${labId}`,
    ]
  ) assert.equal(await storage.get(index), "", `${index}: the key is all an index entry holds`);
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

// Survivors of the second `registry` run.

test("index entries are stale hints: one without a record is skipped, an id in two indexes listed once", async () => {
  const { store, registry: r } = fresh();
  const ada = r.forUser("ada");
  const lab = (await ada.add({ name: "lab", url: `${server.url}?lab` }, off)).server;
  const g = (await r.global.add({ name: "g", url: `${server.url}?g` }, off)).server;
  // An index entry is written before its record: a crash in between leaves it alone.
  await store.set("registry/owners/ada/s-000000000000-00000000000000", "");
  // Entries naming servers she already sees through another index (her own, a global one).
  await store.set(`registry/shares/ada/${lab.id}`, "");
  await store.set(`registry/owners/ada/${g.id}`, "");
  assert.deepEqual((await ada.list()).map((s) => s.name), ["lab", "g", "builtin-skills"]);
});

test("a server never checked has no status; one shared with a user comes to them without sharedWith", async () => {
  const { registry: r } = fresh();
  const ada = r.forUser("ada");
  const { server: lab } = await ada.add({ name: "lab", url: `${server.url}?s`, apiKey: "sk" }, off);
  await r.global.add({ name: "g", url: `${server.url}?sg` }, off);
  assert.equal("status" in lab, false);
  await ada.share("lab", "bob");
  assert.deepEqual((await ada.get("lab"))?.sharedWith, ["bob"]);
  const usable = await r.forUser("bob").connectable();
  assert.deepEqual(usable.map((s) => s.name), ["lab", "g"]);
  assert.equal(usable[0].apiKey, "sk", "connectable has the secrets");
  for (const s of usable) {
    assert.deepEqual(["sharedWith", "status"].filter((k) => k in s), [], s.name);
  }
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

test("a new URL may not be another owned server's", async () => {
  const { registry: r } = fresh();
  const ada = r.forUser("ada");
  await ada.add({ name: "one", url: `${server.url}?1` }, off);
  await ada.add({ name: "two", url: `${server.url}?2` }, off);
  await assert.rejects(ada.update("one", { url: `${server.url}?2` }, off), {
    name: "PolicyError",
    message: `Server "two" already has the URL ${server.url}?2`,
  });
  assert.equal((await ada.get("one"))?.url, `${server.url}?1`);
});

test("an import is checked in order: its own duplicates clash, a replaced server frees its URL", async () => {
  const { registry: r } = fresh();
  const ada = r.forUser("ada");
  await assert.rejects(
    ada.import([{ name: "x", url: `${server.url}?x1` }, { name: "x", url: `${server.url}?x2` }]),
    {
      name: "PolicyError",
      message: 'Server "x" is already registered; remove it first or replace it',
    },
  );
  assert.deepEqual((await ada.list()).map((s) => s.name), ["builtin-skills"], "nothing saved");
  const { server: lab } = await ada.add({ name: "lab", url: `${server.url}?old` }, off);
  const [moved, other] = await ada.import([
    { name: "lab", url: `${server.url}?new` },
    { name: "other", url: `${server.url}?old` },
  ], { replace: true });
  assert.equal(moved.id, lab.id);
  assert.equal(other.url, `${server.url}?old`);
  // A later server still clashes with an owned one the batch left alone.
  await assert.rejects(
    ada.import([
      { name: "lab", url: `${server.url}?newer` },
      { name: "third", url: `${server.url}?old` },
    ], { replace: true }),
    { name: "PolicyError", message: `Server "other" already has the URL ${server.url}?old` },
  );
  assert.equal((await ada.get("lab"))?.url, `${server.url}?new`, "the batch saved nothing");
  // With replace, a new name is added beside the others.
  const [added] = await ada.import([{ name: "fresh", url: `${server.url}?fresh` }], {
    replace: true,
  });
  assert.notEqual(added.id, lab.id);
  assert.deepEqual((await ada.list()).map((s) => s.name).sort(), [
    "builtin-skills",
    "fresh",
    "lab",
    "other",
  ]);
});

/** `inner`, the names of the methods called on it kept in `calls`. */
function counted(inner: Storage) {
  const calls: string[] = [];
  const storage = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(`${String(prop)} ${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Storage;
  return { storage, calls };
}

test("by id a server is read alone: looking it up, or changing it but not its name or URL, lists no index", async () => {
  const { storage, calls } = counted(createMemoryStorage());
  const r = createMultiUserRegistry({ storage, connect: { urlPolicy: { mode: "default" } } });
  const ada = r.forUser("ada");
  const { server: lab } = await ada.add({ name: "lab", url: `${server.url}?id` }, off);
  calls.length = 0;
  assert.equal((await ada.get(lab.id))?.name, "lab");
  await ada.update(lab.id, { description: "the lab" }, off);
  await ada.unshare(lab.id, "bob");
  assert.deepEqual(calls.filter((c) => c.startsWith("keys")), []);
  assert.deepEqual(calls.filter((c) => c.includes("/shares/")), [
    `delete registry/shares/bob/${lab.id}`,
  ], "unsharing writes no share entry");
});

/** A KV store of `user` over `storage`, without a key or built-ins. */
const kvStore = (storage: Storage, user: string) =>
  createKvStore({ storage, prefix: "kv/", box: () => undefined, builtins: [], changed() {} }, user);

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

test("a change that keeps losing the race gives up naming the server", async () => {
  const inner = createMemoryStorage();
  const [lab] = await kvStore(inner, "ada").insert(
    [{ name: "lab", url: `${server.url}?cas` }],
    false,
  );
  // Another writer changes the record just before each compare-and-set of ours.
  const busy = new Proxy(inner, {
    get(target, prop) {
      if (prop === "compareAndSet") {
        return async (key: string, expected: string | undefined, next: string | undefined) => {
          const now = JSON.parse((await inner.get(key))!);
          await inner.set(key, JSON.stringify({ ...now, revision: now.revision + 1 }));
          return await inner.compareAndSet!(key, expected, next);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Storage;
  const ada = kvStore(busy, "ada");
  const conflict = {
    name: "ConflictError",
    message: `Cannot update server ${lab.id}: other writers kept changing it (64 tries)`,
  };
  await assert.rejects(ada.modify(lab.id, (s) => ({ ...s, description: "mine" })), conflict);
  await assert.rejects(
    ada.setStatus(lab, { ok: true, at: new Date().toISOString(), via: "ping" }),
    conflict,
  );
});
