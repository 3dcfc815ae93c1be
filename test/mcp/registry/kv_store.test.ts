// The multi-user registry's key-value store (lib/mcp/registry/_kv_store.ts), over memory storage
// and a real SDK server: the keys are the documented layout (`servers/<id>.json`,
// `owners/<URI-encoded user>/<id>`, `global/<id>`, `shares/<user>/<id>`); index entries are
// stale hints (one that is not an id, or without a record, is skipped; an id in two indexes is
// listed once); a value under a record key that is not a record is an error naming the key; the
// order of a user's list; updates (revision, stale revision, renames, URLs), removals and imports
// (checked in order, replacing in place); by id a server is read without listing an index; a
// change that keeps losing the compare-and-set names the server. Who sees and changes what:
// kv_store_sharing.test.ts. Over 300 lines: one store's layout and its writes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { parseRecord } from "../../../lib/mcp/registry/_kv_store.ts";
import {
  createMultiUserRegistry,
  type MultiUserRegistry,
} from "../../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";
import { counted, fresh, kvStore, off, populated } from "./_kv.ts";

let server: SdkServer;
let storage: Storage;
let registry: MultiUserRegistry;
let labId: string;
let companyId: string;

before(async () => {
  server = await startSdkServer({ json: true });
  ({ storage, registry, labId, companyId } = await populated(server.url));
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
