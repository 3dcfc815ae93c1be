// The registry's view over its store (lib/mcp/registry/_view.ts; survivors of the first
// `registry` run), over memory storage and real SDK servers: change events name the servers
// (old and new name on a rename) and a failing listener stops neither the others nor the call; a
// ping or refresh of a name not registered is refused by name, a failed one records why and a
// refresh announces only what it refreshed; `invalidate` drops the cached discovery; a damaged
// cache only costs the era probe; a URL change connects again, a description does not; in a
// multi-user registry stdio is refused, another user's server is masked and may be changed by its
// owner only, and built-in servers by no one.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { createMultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import type { RegistryChange } from "../../lib/mcp/registry/types.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "./_servers.ts";
import { deadUrl } from "../_closed_port.ts";

let server: SdkServer;
before(async () => (server = await startSdkServer({ json: true })));
after(() => server.close());
const off = { discover: false } as const;
const posts = () => server.requests.filter((r) => r.method === "POST").length;

test("change events name the servers; a failing listener stops neither the others nor the call", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const heard: RegistryChange[] = [];
  registry.onChange(() => {
    throw new Error("a broken listener");
  });
  registry.onChange((change) => heard.push(change));
  await registry.add({ name: "one", url: `${server.url}?1` }, off);
  await registry.update("one", { name: "uno" }, off);
  await registry.import([{ name: "two", url: `${server.url}?2` }]);
  await registry.remove("uno");
  assert.deepEqual(heard.map((c) => [c.kind, c.names]), [
    ["servers", ["one"]],
    ["servers", ["one", "uno"]],
    ["servers", ["two"]],
    ["servers", ["uno"]],
  ]);
});

test("ping and refresh: a name not registered is refused; a failure is recorded; only refreshed ones are announced", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "live", url: server.url }, off);
  await registry.add({ name: "dead", url: await deadUrl() }, off);
  await assert.rejects(registry.ping(["nobody"]), (e: Error & { field?: string }) => {
    assert.equal(e.message, 'No server named "nobody" is registered');
    assert.equal(e.field, "name");
    return true;
  });
  const [dead] = await registry.ping(["dead"]);
  assert.equal(dead.ok, false);
  assert.equal((await registry.get("dead"))?.status?.ok, false);
  const heard: RegistryChange[] = [];
  registry.onChange((change) => heard.push(change));
  const rows = await registry.refresh(["live", "dead"]);
  assert.deepEqual(rows.map((r) => [r.name, r.ok]), [["live", true], ["dead", false]]);
  assert.deepEqual(heard.map((c) => [c.kind, c.names]), [["discovery", ["live"]]]);
  await registry.refresh(["dead"]);
  assert.equal(heard.length, 1, "nothing refreshed, nothing announced");
  assert.ok(await registry.discovery("live"));
  await registry.invalidate("live");
  assert.equal(await registry.discovery("live"), undefined);
  assert.deepEqual(heard.at(-1), { kind: "discovery", names: ["live"] });
});

test("a damaged cache only costs the era probe; a URL change connects again, a description does not", async () => {
  const storage = createMemoryStorage();
  const registry = createServerRegistry({ storage });
  await registry.add({ name: "lab", url: server.url });
  await storage.set("cache/mcp/lab.json", "{ not json");
  const [pinged] = await registry.ping(["lab"]);
  assert.equal(pinged.ok, true);
  const before = posts();
  await registry.update("lab", { description: "the lab" });
  assert.equal(posts(), before, "no connection for a description");
  const { server: moved } = await registry.update("lab", { url: `${server.url}?moved` });
  assert.ok(posts() > before, "connected to the new URL");
  assert.equal(moved.status?.via, "update");
});

test("multi-user: stdio refused, others' servers masked, changed by their owner only, built-ins by no one", async () => {
  const registry = createMultiUserRegistry({
    storage: createMemoryStorage(),
    secrets: { key: new Uint8Array(32).fill(12) },
    connect: { urlPolicy: { mode: "default" } },
  });
  await assert.rejects(
    registry.forUser("ada").add({ name: "local", command: "rm" }, off),
    (e: Error & { field?: string }) => {
      assert.equal(
        e.message,
        "stdio servers are not allowed in this registry: they would run a program on the host",
      );
      assert.equal(e.field, "command");
      return true;
    },
  );
  await registry.forUser("ada").add(
    { name: "lab", url: server.url, apiKey: "sk-ada", headers: { "X-Team": "t" } },
    off,
  );
  await registry.forUser("ada").share("lab", "bob");
  const seen = await registry.forUser("bob").get("lab");
  assert.ok(seen);
  assert.deepEqual(["apiKey", "headers", "sharedWith"].filter((k) => k in seen), []);
  assert.equal((await registry.forUser("ada").get("lab"))?.apiKey, "sk-ada");
  await assert.rejects(registry.forUser("bob").update("lab", { description: "mine" }, off), {
    name: "ForbiddenError",
    message: 'Cannot update server "lab": only its owner may',
  });
  await assert.rejects(registry.forUser("bob").remove("lab"), {
    name: "ForbiddenError",
    message: 'Cannot remove server "lab": only its owner may',
  });
  await assert.rejects(
    registry.forUser("ada").update("builtin-skills", { description: "x" }, off),
    {
      name: "ForbiddenError",
      message: 'Cannot update "builtin-skills": built-in servers cannot be changed',
    },
  );
});
