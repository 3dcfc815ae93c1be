// Per-user resolvers (lib/resolve/users.ts) over a multi-user registry and real MCP servers on
// 127.0.0.1: each user's chain is their own and caches never serve one user's skill or listing to
// another; a chain is reused for its ttlMs and the least recently used goes first; registry changes
// drop the chains they touch; users share one source per server, replaced on a new revision; and
// a server's updated URL reaches every user. Over 300 lines: one behaviour with its fixtures.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createMultiUserRegistry, type MultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createUserResolvers, type UserResolvers } from "../../lib/resolve/users.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import type { Storage } from "../../lib/storage/types.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { skillDoc } from "./_helpers.ts";

let adaServer: SdkServer;
let bobServer: SdkServer;
let globalServer: SdkServer;
let registry: MultiUserRegistry;
let resolvers: UserResolvers;

before(async () => {
  [adaServer, bobServer, globalServer] = await Promise.all([
    startSdkServer({
      json: true,
      skills: { pipeline: skillDoc("pipeline", "Ada's pipeline. Use when running.") },
    }),
    startSdkServer({
      json: true,
      skills: { pipeline: skillDoc("pipeline", "Bob's pipeline. Use when running.") },
    }),
    startSdkServer({
      json: true,
      skills: { handbook: skillDoc("handbook", "Company handbook. Use when asked.") },
    }),
  ]);
  registry = createMultiUserRegistry({
    storage: createMemoryStorage(),
    secrets: { key: new Uint8Array(32).fill(3) },
    connect: { urlPolicy: { mode: "default" } },
  });
  const skills = createMemoryStorage({
    initial: {
      "users/ada/skills/notes.md": skillDoc("notes", "Ada's notes. Use when asked."),
      "users/bob/skills/notes.md": skillDoc("notes", "Bob's notes. Use when asked."),
    },
  });
  const community = createMemoryStorage({
    initial: { "notes.md": skillDoc("notes", "Community notes."), "style.md": skillDoc("style") },
  });
  await registry.global.add({ name: "company", url: globalServer.url });
  await registry.forUser("ada").add({ name: "lab", url: adaServer.url, apiKey: "sk-ada" });
  await registry.forUser("bob").add({ name: "lab", url: bobServer.url, apiKey: "sk-bob" });
  resolvers = createUserResolvers({
    registry,
    skills,
    shared: createStorageSource({ label: "community", storage: community }),
  });
});
after(async () => {
  await resolvers.dispose();
  await Promise.all([adaServer.close(), bobServer.close(), globalServer.close()]);
});

describe("per-user resolvers", () => {
  test("same skill name, two users: each gets their own, warm or cold, in any order", async () => {
    for (let round = 0; round < 3; round++) {
      for (const [user, who] of [["ada", "Ada"], ["bob", "Bob"]] as const) {
        const notes = await resolvers.resolve(user, "notes");
        assert.equal(notes.source, "user");
        assert.match(notes.skill.description, new RegExp(`^${who}'s notes`));
        const pipeline = await resolvers.resolve(user, "pipeline");
        assert.equal(pipeline.source, "mcp:lab");
        assert.match(pipeline.skill.description, new RegExp(`^${who}'s pipeline`), user);
      }
    }
    assert.equal(resolvers.size, 2);
  });

  test("the priority rules hold: user > shared > the user's servers > built-ins", async () => {
    assert.equal((await resolvers.resolve("carol", "notes")).source, "community");
    assert.equal((await resolvers.resolve("carol", "handbook")).source, "mcp:company");
    assert.equal((await resolvers.resolve("carol", "samtools")).source, "builtin");
    await assert.rejects(resolvers.resolve("carol", "pipeline"), { name: "SkillNotFoundError" });
    const ada = await resolvers.list("ada");
    const row = ada.skills.find((s) => s.name === "notes")!;
    assert.deepEqual([row.source, row.shadows], ["user", ["community"]]);
    const carol = await resolvers.list("carol");
    assert.equal(carol.skills.some((s) => s.name === "pipeline"), false, "no one else's listing");
  });

  test("sharing and unsharing reach the other user's chain at once (same instance)", async () => {
    await registry.forUser("ada").share("lab", "carol");
    const shared = await resolvers.resolve("carol", "pipeline");
    assert.match(shared.skill.description, /^Ada's pipeline/);
    await registry.forUser("ada").unshare("lab", "carol");
    await assert.rejects(resolvers.resolve("carol", "pipeline"), { name: "SkillNotFoundError" });
    assert.match((await resolvers.resolve("bob", "pipeline")).skill.description, /^Bob's/);
  });

  test("a disabled server leaves the chain; the chain cache is bounded", async () => {
    await registry.forUser("bob").update("lab", { enabled: false });
    await assert.rejects(resolvers.resolve("bob", "pipeline"), { name: "SkillNotFoundError" });
    const small = createUserResolvers({ registry, maxUsers: 2 });
    for (const user of ["u1", "u2", "u3"]) await small.resolve(user, "samtools");
    assert.equal(small.size, 2);
    await small.dispose();
  });
});

describe("chains: reuse, invalidation, shared sources, dispose", () => {
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
});

describe("a server's updated URL", () => {
  test("after a server's URL is updated, each user's resolves use the new URL", async () => {
    const [first, second] = await Promise.all([
      startSdkServer({ json: true, skills: { pipeline: skillDoc("pipeline", "Old server.") } }),
      startSdkServer({ json: true, skills: { pipeline: skillDoc("pipeline", "New server.") } }),
    ]);
    const registry = createMultiUserRegistry({
      storage: createMemoryStorage(),
      secrets: { key: new Uint8Array(32).fill(5) },
      connect: { urlPolicy: { mode: "default" } }, // the test servers are on loopback
    });
    const resolvers = createUserResolvers({ registry, builtins: false });
    try {
      const ada = registry.forUser("ada");
      await ada.add({ name: "lab", url: first.url }, { discover: false });
      await ada.share("lab", "carol");
      for (const user of ["ada", "carol"]) {
        const hit = await resolvers.resolve(user, "pipeline");
        assert.deepEqual([hit.source, hit.skill.description], ["mcp:lab", "Old server."], user);
      }
      await ada.update("lab", { url: second.url });
      for (const user of ["ada", "carol"]) {
        const hit = await resolvers.resolve(user, "pipeline");
        assert.deepEqual([hit.source, hit.skill.description], ["mcp:lab", "New server."], user);
      }
    } finally {
      await resolvers.dispose();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
