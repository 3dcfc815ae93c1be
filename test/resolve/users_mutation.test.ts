// Per-user resolvers' own rules (lib/resolve/users.ts; survivors of the second `resolve` run),
// over a real multi-user registry and real MCP servers (sessions, so a closed source is seen as
// its DELETE): a chain is reused for 30 s by default and rebuilt once its ttlMs passed; the least
// recently used chain goes first; a change to a global server drops every chain, a user's change
// only theirs; invalidate() drops one chain or all; a chain whose build failed is not kept; the
// users' chains share one source per server, and a server's new revision replaces (and closes)
// its source; built-ins can be left out; a chain without user skills or servers answers without
// diagnostics; dispose() closes every source and stops listening to the registry.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createMultiUserRegistry, type MultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createUserResolvers } from "../../lib/resolve/users.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import type { Storage } from "../../lib/storage/types.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { skillDoc } from "./_helpers.ts";

let server: SdkServer;
let registry: MultiUserRegistry;
const closed = (session: string) =>
  server.requests.some((r) => r.method === "DELETE" && r.sessionId === session);
/** Waits (bounded, 5 s) until the server saw `session` end with a DELETE; answers whether it did. */
async function ended(session: string): Promise<boolean> {
  for (let i = 0; i < 100 && !closed(session); i++) await new Promise((r) => setTimeout(r, 50));
  return closed(session);
}

before(async () => {
  server = await startSdkServer({
    stateful: true,
    skills: { handbook: skillDoc("handbook", "Company handbook. Use when asked.") },
  });
  registry = createMultiUserRegistry({
    storage: createMemoryStorage(),
    secrets: { key: new Uint8Array(32).fill(5) },
    connect: { urlPolicy: { mode: "default" } },
  });
  await registry.global.add({ name: "company", url: server.url });
});
after(() => server.close());

test("a chain is reused for 30 s by default, rebuilt every time with ttlMs 0", async () => {
  const warm = createUserResolvers({ registry });
  const cold = createUserResolvers({ registry, ttlMs: 0 });
  try {
    assert.equal(await warm.forUser("ada"), await warm.forUser("ada"));
    assert.notEqual(await cold.forUser("ada"), await cold.forUser("ada"));
  } finally {
    await Promise.all([warm.dispose(), cold.dispose()]);
  }
});

test("the least recently used chain goes first", async () => {
  const small = createUserResolvers({ registry, maxUsers: 2 });
  try {
    const a = await small.forUser("a");
    const b = await small.forUser("b");
    assert.equal(await small.forUser("a"), a, "a is now the most recent");
    await small.forUser("c");
    assert.equal(small.size, 2);
    assert.equal(await small.forUser("a"), a, "kept");
    assert.notEqual(await small.forUser("b"), b, "dropped, rebuilt");
  } finally {
    await small.dispose();
  }
});

test("a global change drops every chain; a user's change only theirs; invalidate one or all", async () => {
  const resolvers = createUserResolvers({ registry });
  try {
    const ada = await resolvers.forUser("ada");
    const bob = await resolvers.forUser("bob");
    await registry.forUser("ada").add({ name: "own", url: server.url });
    assert.notEqual(await resolvers.forUser("ada"), ada, "ada's chain rebuilt");
    assert.equal(await resolvers.forUser("bob"), bob, "bob's kept");
    const [ada2, bob2] = [await resolvers.forUser("ada"), await resolvers.forUser("bob")];
    await registry.global.update("company", { description: "the company's server" });
    assert.notEqual(await resolvers.forUser("ada"), ada2);
    assert.notEqual(await resolvers.forUser("bob"), bob2);
    const [ada3, bob3] = [await resolvers.forUser("ada"), await resolvers.forUser("bob")];
    resolvers.invalidate("ada");
    assert.notEqual(await resolvers.forUser("ada"), ada3);
    assert.equal(await resolvers.forUser("bob"), bob3);
    resolvers.invalidate();
    assert.equal(resolvers.size, 0);
    assert.notEqual(await resolvers.forUser("bob"), bob3);
    await registry.forUser("ada").remove("own");
  } finally {
    await resolvers.dispose();
  }
});

test("a chain whose build failed is not kept: the next call builds it again", async () => {
  const inner = createMemoryStorage();
  let failing = true;
  // Every read fails while `failing`: a store that is down (a real one cannot be made to).
  const storage = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (failing && (prop === "get" || prop === "keys")) {
        return () => Promise.reject(new Error("the store is down"));
      }
      return value.bind(target);
    },
  }) as Storage;
  const flaky = createMultiUserRegistry({
    storage,
    secrets: { key: new Uint8Array(32).fill(6) },
    connect: { urlPolicy: { mode: "default" } },
  });
  const resolvers = createUserResolvers({ registry: flaky });
  try {
    await assert.rejects(resolvers.forUser("ada"), /the store is down/);
    assert.equal(resolvers.size, 0);
    failing = false;
    assert.equal((await resolvers.resolve("ada", "samtools")).source, "builtin");
  } finally {
    await resolvers.dispose();
  }
});

test("users share one source per server; a new revision replaces and closes it", async () => {
  const resolvers = createUserResolvers({ registry });
  try {
    const ada = (await resolvers.forUser("ada")).sources.find((s) => s.label === "mcp:company");
    const bob = (await resolvers.forUser("bob")).sources.find((s) => s.label === "mcp:company");
    assert.ok(ada);
    assert.equal(bob, ada, "one source, one connection");
    assert.equal((await resolvers.resolve("ada", "handbook")).source, "mcp:company");
    const session = server.requests.findLast((r) => r.rpc === "resources/read")?.sessionId;
    assert.ok(session);
    await registry.global.update("company", { url: `${server.url}?v=2` });
    const next = (await resolvers.forUser("ada")).sources.find((s) => s.label === "mcp:company");
    assert.notEqual(next, ada);
    assert.ok(await ended(session), "the old source's session ended");
    await registry.global.update("company", { url: server.url });
  } finally {
    await resolvers.dispose();
  }
});

test("built-ins can be left out; a chain without skills or servers answers cleanly", async () => {
  const bare = createMultiUserRegistry({
    storage: createMemoryStorage(),
    secrets: { key: new Uint8Array(32).fill(7) },
  });
  const without = createUserResolvers({ registry: bare, builtins: false });
  const plain = createUserResolvers({ registry: bare });
  try {
    assert.deepEqual((await without.forUser("ada")).sources, []);
    await assert.rejects(without.resolve("ada", "samtools"), { name: "SkillNotFoundError" });
    const hit = await plain.resolve("ada", "samtools");
    assert.deepEqual([hit.source, hit.diagnostics], ["builtin", []]);
    assert.deepEqual((await plain.forUser("ada")).sources.map((s) => s.label), ["builtin"]);
  } finally {
    await Promise.all([without.dispose(), plain.dispose()]);
  }
});

test("dispose() closes every source and stops listening to the registry", async () => {
  const resolvers = createUserResolvers({ registry });
  await resolvers.resolve("ada", "handbook");
  const session = server.requests.findLast((r) => r.rpc === "resources/read")?.sessionId;
  assert.ok(session);
  await resolvers.dispose();
  assert.ok(await ended(session), "its session ended");
  assert.equal(resolvers.size, 0);
  const kept = await resolvers.forUser("ada");
  await registry.global.update("company", { description: "changed after dispose" });
  assert.equal(await resolvers.forUser("ada"), kept, "no longer listening");
  await resolvers.dispose();
});
