// The single-user registry over config.toml (lib/mcp/registry/_toml_store.ts), over memory
// storage and a real SDK server: a write keeps the document's other tables; a server's status is
// kept beside the file and shown; lookups go by id, name, then URL; a name another server still
// uses as its id gets a fresh id; one batch may not register a name twice unless replacing, and
// nothing of a refused batch is saved; replacing keeps the id; a rename drops the cached
// discovery of the old name and may not take another's name.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";

let server: SdkServer;
before(async () => (server = await startSdkServer({ json: true })));
after(() => server.close());
const off = { discover: false } as const;

function fresh(text = "") {
  const storage = createMemoryStorage({ initial: text ? { "config.toml": text } : {} });
  return { storage, registry: createServerRegistry({ storage }) };
}

test("a write keeps the document's other tables; the status is kept beside it and shown", async () => {
  const { storage, registry } = fresh('[ui]\ntheme = "dark"\n');
  await registry.add({ name: "lab", url: server.url });
  assert.match((await storage.get("config.toml"))!, /\[ui\]\ntheme = "dark"/);
  assert.ok(await storage.get("cache/status/lab.json"));
  const [lab] = await registry.list();
  assert.equal(lab.status?.ok, true);
  assert.equal((await registry.get("lab"))?.status?.ok, true);
});

test("lookups by id, name, then URL; a name still used as an id gets a fresh id", async () => {
  const { registry } = fresh();
  await registry.add({ name: "old", url: `${server.url}?1` }, off);
  await registry.update("old", { name: "renamed" }, off);
  const { server: again } = await registry.add({ name: "old", url: `${server.url}?2` }, off);
  assert.match(again.id, /^s-/, "the name 'old' is still the renamed server's id");
  assert.equal((await registry.get("old"))?.name, "renamed", "by id first");
  assert.equal((await registry.get(again.id))?.name, "old");
  assert.equal((await registry.get(`${server.url}?2`))?.name, "old", "by URL");
  assert.equal(await registry.get("nobody"), undefined);
});

test("a batch may not name a server twice unless replacing; replacing keeps the id", async () => {
  const { registry } = fresh();
  await assert.rejects(
    registry.import([{ name: "a", url: `${server.url}?a1` }, {
      name: "a",
      url: `${server.url}?a2`,
    }]),
    /"a" is already registered/,
  );
  assert.deepEqual(
    (await registry.list()).filter((s) => s.name !== "builtin-skills"),
    [],
    "nothing of it saved",
  );
  const [first] = await registry.import([{ name: "a", url: `${server.url}?a1` }]);
  const [replaced] = await registry.import([{ name: "a", url: `${server.url}?a3` }], {
    replace: true,
  });
  assert.equal(replaced.id, first.id);
  assert.equal((await registry.get("a"))?.url, `${server.url}?a3`);
});

test("a rename drops the old name's cached discovery and may not take another's name", async () => {
  const { storage, registry } = fresh();
  await registry.add({ name: "one", url: server.url });
  await registry.add({ name: "two", url: `${server.url}?two` }, off);
  assert.ok(await storage.get("cache/mcp/one.json"));
  await assert.rejects(registry.update("one", { name: "two" }, off), /"two" is already registered/);
  await registry.update("one", { name: "uno" }, off);
  assert.equal(await storage.get("cache/mcp/one.json"), undefined);
  await assert.rejects(registry.remove("nobody"), /No server matches "nobody"/);
});
