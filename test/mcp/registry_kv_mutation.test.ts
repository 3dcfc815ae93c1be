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
