// The registry's view over its store (lib/mcp/registry/_view.ts), over memory storage and real
// SDK servers: change events (old and new name on a rename; a failing listener stops neither the
// others nor the call; a per-user view's own listeners); ping and refresh (a name not registered
// refused, which servers a ping picks, a failed row's reason and code, the status kept with its
// `via`, every connection closed); the cached discovery and the kept era (invalidate, a damaged
// cache, a URL change connects again, a description does not); and in a multi-user registry
// stdio refused, others' servers masked, built-ins changed by no one. Over 300 lines: each of
// these is what the view adds over its store.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import type { RegistryChange } from "../../../lib/mcp/registry/types.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";
import { deadUrl } from "../../_closed_port.ts";
import { startOAuthServers } from "../_oauth_server.ts";

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
    server: "lab",
  });
  await assert.rejects(registry.forUser("bob").remove("lab"), {
    name: "ForbiddenError",
    message: 'Cannot remove server "lab": only its owner may',
    server: "lab",
  });
  await assert.rejects(
    registry.forUser("ada").update("builtin-skills", { description: "x" }, off),
    {
      name: "ForbiddenError",
      message: 'Cannot update "builtin-skills": built-in servers cannot be changed',
      server: "builtin-skills",
    },
  );
});

// Survivors of the second `registry` run: what a ping or refresh keeps and answers, the kept
// protocol hint, which servers a ping picks, and the per-user view's own change events.

test("a failed row: the caller's abort reason as it is (kind Error for a non-Error), no code but an OAuthError's", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "lab", url: server.url }, off);
  const coded = Object.assign(new Error("user left"), { code: "user_left" });
  const foreign = Object.assign(new Error("not ours"), { name: "OAuthError", code: 7 });
  for (
    const [reason, error, kind] of [
      [null, "null", "Error"],
      ["bye", "bye", "Error"],
      [coded, "user left", "Error"],
      [foreign, "not ours", "OAuthError"],
    ] as const
  ) {
    const rows = await registry.ping(["lab"], { signal: AbortSignal.abort(reason) });
    assert.deepEqual(rows, [{ name: "lab", id: "lab", ok: false, error, kind }]);
  }
});

test("a sign-in a server needs is code sign_in_required in the row and in the status kept, with its via", async () => {
  const oauth = await startOAuthServers();
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "locked", url: oauth.mcpUrl }, off);
    const kept = async (via: string) => {
      const status = (await registry.get("locked"))?.status;
      assert.ok(status);
      assert.match(status.at, /^\d{4}-\d\d-\d\dT/);
      assert.match(status.error ?? "", /^locked: sign-in needed/);
      assert.deepEqual({ ...status, at: "", error: "" }, {
        ok: false,
        at: "",
        via,
        error: "",
        kind: "OAuthError",
        code: "sign_in_required",
      });
    };
    const [pinged] = await registry.ping(["locked"]);
    assert.equal(pinged.ok === false && pinged.code, "sign_in_required");
    await kept("ping");
    const [refreshed] = await registry.refresh(["locked"]);
    assert.equal(refreshed.ok === false && refreshed.code, "sign_in_required");
    await kept("refresh");
  } finally {
    await oauth.close();
  }
});

test("the status kept: ok via add after discovery, ok via refresh at the discovery's time", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const { server: added } = await registry.add({ name: "lab", url: server.url });
  assert.deepEqual(added.status && { ...added.status, at: "" }, { ok: true, at: "", via: "add" });
  assert.equal((await registry.get("lab"))?.status?.via, "add");
  const [row] = await registry.refresh(["lab"]);
  assert.ok(row.ok);
  assert.deepEqual((await registry.get("lab"))?.status, {
    ok: true,
    at: row.discovery.discoveredAt,
    via: "refresh",
  });
});

let elsewhere = 0;
/** A URL of the test server this process never connected to (its era not yet learnt). */
const unseen = () => `${server.url}?elsewhere-${++elsewhere}-${Date.now()}`;
const probes = (from: number) =>
  server.requests.slice(from).filter((r) => r.rpc === "server/discover").length;

test("the era learnt at discovery is kept: a saved server skips the probe, a server being added does not", async () => {
  // Another process discovered "lab": its registry document and discovery cache are in storage.
  const first = createMemoryStorage();
  await createServerRegistry({ storage: first }).add({ name: "lab", url: unseen() });
  const cached = await first.get("cache/mcp/lab.json");
  assert.ok(cached && JSON.parse(cached).hint, "the cache holds the hint");
  const storage = createMemoryStorage();
  const registry = createServerRegistry({ storage });
  await registry.add({ name: "lab", url: unseen() }, off);
  await storage.set("cache/mcp/lab.json", cached);
  let from = server.requests.length;
  const [pinged] = await registry.ping(["lab"]);
  assert.equal(pinged.ok, true);
  assert.equal(probes(from), 0, "connected with the kept hint");
  // Replacing it: the new entry has no id yet, nothing is learnt about it; it probes.
  from = server.requests.length;
  const { server: replaced } = await registry.add({ name: "lab", url: unseen() }, {
    replace: true,
  });
  assert.equal(replaced.status?.ok, true);
  assert.equal(probes(from), 1, "probed the new entry's era");
});

test("each ping and refresh closes its connection: the server sees every session ended", async () => {
  const stateful = await startSdkServer({ json: true, stateful: true });
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "s", url: stateful.url }, off);
    await registry.ping(["s"]);
    await registry.refresh(["s"]);
    const opened = stateful.requests.filter((r) => r.rpc === "initialize").length;
    const ended = stateful.requests.filter((r) => r.method === "DELETE").length;
    assert.equal(opened, 2);
    assert.equal(ended, 2);
  } finally {
    await stateful.close();
  }
});

test("ping picks every enabled server with a URL or a command; named, any by id, name or URL", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "one", url: `${server.url}?one` }, off);
  await registry.update("one", { name: "uno" }, off); // its id stays "one"
  await registry.add({ name: "local", command: process.execPath, args: ["-e", "0"] }, off);
  await registry.add({ name: "resting", url: `${server.url}?resting`, enabled: false }, off);
  const all = await registry.ping();
  assert.deepEqual(all.map((r) => r.name).sort(), ["local", "uno"]);
  const local = all.find((r) => r.name === "local");
  assert.equal(local?.ok === false && local.kind, "PolicyError", "no stdio connector given");
  const named = await registry.ping(["one", `${server.url}?resting`]);
  assert.deepEqual(named.map((r) => [r.name, r.ok]), [["uno", true], ["resting", true]]);
});

test("a description is checked on add and import; a disabled server's new URL is not connected", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const bad = { name: "bad", url: `${server.url}?bad`, description: "ring\u0007" };
  const refused = {
    name: "PolicyError",
    message: "description must not contain control characters",
  };
  await assert.rejects(registry.add(bad, off), refused);
  await assert.rejects(registry.import([bad]), refused);
  assert.deepEqual(await registry.list(), []);
  await registry.add({ name: "resting", url: `${server.url}?r1`, enabled: false }, off);
  const before = posts();
  const { discovery } = await registry.update("resting", { url: `${server.url}?r2` });
  assert.equal(discovery, undefined);
  const { discovery: off2 } = await registry.update("resting", {
    url: `${server.url}?r3`,
    enabled: false,
  });
  assert.equal(off2, undefined);
  assert.equal(posts(), before, "no connection for a disabled server");
});

test("invalidating a name not registered does nothing and announces nothing", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const heard: RegistryChange[] = [];
  registry.onChange((change) => heard.push(change));
  assert.equal(await registry.invalidate("nobody"), undefined);
  assert.deepEqual(heard, []);
});

test("a user's view tells its own listeners of its changes until they unsubscribe", async () => {
  const registry = createMultiUserRegistry({
    storage: createMemoryStorage(),
    connect: { urlPolicy: { mode: "default" } },
  });
  const ada = registry.forUser("ada");
  const heard: RegistryChange[] = [];
  const stop = ada.onChange((change) => heard.push(change));
  await ada.add({ name: "lab", url: `${server.url}?view` }, off);
  stop();
  await ada.remove("lab");
  assert.deepEqual(heard, [{ kind: "servers", names: ["lab"] }]);
});
