// The multi-user registry end to end against a real redis-server (through unstorage) and real
// MCP servers: two users, a global server, sharing, owner-only changes, status, secrets hidden.
import { skillResources } from "../../../lib/resolve/skill_resources.ts";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Redis } from "ioredis";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import {
  createMultiUserRegistry,
  type MultiUserRegistry,
} from "../../../lib/mcp/registry/users.ts";
import { createUserResolvers } from "../../../lib/resolve/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { createUnstorageStorage } from "../../../lib/storage/unstorage.ts";
import { type RedisServer, startRedis } from "../../storage/_redis.ts";
import { type SdkServer, startSdkServer } from "../_servers.ts";
import { deadUrl } from "../../_closed_port.ts";

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: ${name}. Use when testing.\n---\n`;
const DEAD = await deadUrl();
const KEY = new Uint8Array(32).fill(7);

let redis: RedisServer;
let admin: Redis;
let unstorage: ReturnType<typeof createStorage>;
let up: SdkServer;
let other: SdkServer;
let registry: MultiUserRegistry;

before(async () => {
  [redis, up, other] = await Promise.all([
    startRedis(),
    startSdkServer({ json: true, skills: { bwa: SKILL("bwa") } }),
    startSdkServer({ json: true, skills: { star: SKILL("star") } }),
  ]);
  admin = new Redis(redis.url);
  unstorage = createStorage({ driver: redisDriver({ url: redis.url }) });
  registry = createMultiUserRegistry({
    storage: createUnstorageStorage(unstorage, { base: "svc" }),
    secrets: { key: KEY },
    connect: { urlPolicy: { mode: "default" } }, // the test servers are on loopback
  });
});
after(async () => {
  admin.disconnect();
  await unstorage.dispose();
  await Promise.all([up.close(), other.close(), redis.stop()]);
});

describe("two users and a global server, in Redis", () => {
  test("each user sees their own, the global and the built-in servers", async () => {
    await registry.global.add({ name: "docs", url: up.url, description: "Company docs" });
    const ada = registry.forUser("ada");
    const bob = registry.forUser("bob");
    const added = await ada.add({
      name: "lab",
      url: other.url,
      apiKey: "sk-ada-secret",
      headers: { "X-Lab": "hdr-ada-secret" },
    });
    assert.deepEqual(skillResources(added.discovery?.resources ?? []).map((s) => s.name), ["star"]);
    assert.equal(added.server.owner, "ada");
    await bob.add({ name: "lab", url: up.url, description: "Bob's lab" }, { discover: false });
    const names = async (user: string) =>
      (await registry.forUser(user).list()).map((s) => `${s.name}:${s.scope}:${s.owner ?? "-"}`);
    assert.deepEqual(await names("ada"), [
      "lab:user:ada",
      "docs:global:@global",
      "builtin-skills:builtin:-",
    ]);
    assert.deepEqual(await names("bob"), [
      "lab:user:bob",
      "docs:global:@global",
      "builtin-skills:builtin:-",
    ]);
    assert.deepEqual(await names("carol"), ["docs:global:@global", "builtin-skills:builtin:-"]);
    assert.equal((await ada.get("lab"))?.apiKey, "sk-ada-secret");
    assert.equal((await bob.get("lab"))?.url, up.url);
  });

  test("nothing in Redis holds a plain secret", async () => {
    const keys = await admin.keys("*");
    assert.ok(keys.some((k) => k.startsWith("svc:registry:servers:")), keys.join());
    for (const key of keys) {
      const value = await admin.get(key);
      assert.doesNotMatch(`${key} ${value}`, /sk-ada-secret|hdr-ada-secret/, key);
    }
  });

  test("sharing: the other user uses it without seeing its secrets; only the owner shares", async () => {
    const ada = registry.forUser("ada");
    const carol = registry.forUser("carol");
    const lab = (await ada.get("lab"))!;
    await ada.share("lab", "carol");
    const seen = (await carol.list()).find((s) => s.id === lab.id)!;
    assert.equal(seen.scope, "user");
    assert.equal(seen.apiKey, undefined, "no key for a non-owner");
    assert.equal(seen.headers, undefined);
    assert.equal(seen.sharedWith, undefined);
    assert.deepEqual((await ada.get("lab"))?.sharedWith, ["carol"]);
    const usable = (await carol.connectable()).find((s) => s.id === lab.id)!;
    assert.equal(usable.apiKey, "sk-ada-secret", "connectable() carries what a connection needs");
    const forbidden = await carol.update(lab.id, { description: "mine now" }).catch((e) => e);
    assert.equal(forbidden.name, "ForbiddenError");
    assert.match(forbidden.message, /only its owner may/);
    assert.equal((await carol.share(lab.id, "dave").catch((e) => e)).name, "ForbiddenError");
    assert.equal((await carol.remove(lab.id).catch((e) => e)).name, "ForbiddenError");
    assert.equal((await ada.remove("docs").catch((e) => e)).name, "ForbiddenError");
    assert.equal(
      (await ada.update("builtin:skills", { description: "x" }).catch((e) => e)).name,
      "ForbiddenError",
    );
    await ada.unshare("lab", "carol");
    assert.equal((await carol.list()).some((s) => s.id === lab.id), false);
  });

  test("a server you cannot see is not found, exactly like an unknown one", async () => {
    const ada = registry.forUser("ada");
    const bob = registry.forUser("bob");
    const lab = (await ada.get("lab"))!;
    const hidden = await bob.update(lab.id, { description: "x" }).catch((e) => e);
    const unknown = await bob.update("s-000000000000-00000000000000", { description: "x" }).catch(
      (e) => e,
    );
    assert.equal(hidden.name, "PolicyError");
    assert.equal(hidden.message.replace(lab.id, "ID"), unknown.message.replace(/s-0+-0+/, "ID"));
    assert.equal((await bob.remove(lab.id).catch((e) => e)).name, "PolicyError");
    assert.equal((await bob.share(lab.id, "bob2").catch((e) => e)).name, "PolicyError");
    assert.equal(await bob.get(lab.id), undefined);
    assert.equal(await bob.discovery(lab.id), undefined);
  });

  test("update is validated like add, keeps the id, and saves nothing on failure", async () => {
    const ada = registry.forUser("ada");
    const before = (await ada.get("lab"))!;
    const bad = await ada.update("lab", { headers: { Cookie: "a=b" } }).catch((e) => e);
    assert.equal(bad.name, "PolicyError");
    const dead = await ada.update("lab", { url: DEAD }).catch((e) => e);
    assert.equal(dead.name, "NetworkError");
    const unknownField = await ada.update("lab", { owner: "bob" } as never).catch((e) => e);
    assert.match(unknownField.message, /cannot update "owner"/);
    const clash = await ada.add({ name: "lab", url: up.url }, { discover: false }).catch((e) => e);
    assert.match(clash.message, /already registered/);
    assert.deepEqual(await ada.get("lab"), before);
    const { server } = await ada.update("lab", { name: "lab2", description: "Ada's lab" });
    assert.equal(server.id, before.id);
    assert.equal(server.revision, before.revision! + 1);
    const stale = await ada.update(before.id, { description: "late" }, {
      ifRevision: before.revision,
    })
      .catch((e) => e);
    assert.equal(stale.name, "ConflictError");
    await ada.update(before.id, { name: "lab" }, { ifRevision: server.revision });
  });

  test("ping keeps each server's status; a dead one never hides the others", async () => {
    const ada = registry.forUser("ada");
    await ada.add({ name: "dead", url: DEAD }, { discover: false });
    const rows = await ada.ping();
    assert.deepEqual(rows.map((r) => [r.name, r.ok]), [["lab", true], ["dead", false], [
      "docs",
      true,
    ]]);
    const listed = await ada.list();
    const status = Object.fromEntries(listed.map((s) => [s.name, s.status]));
    assert.equal(status.lab?.ok, true);
    assert.equal(status.lab?.via, "ping");
    assert.equal(status.dead?.ok, false);
    assert.equal(status.dead?.kind, "NetworkError");
    assert.equal(status.docs?.ok, true, "a global server's status is everyone's");
    await ada.refresh(["lab"]);
    assert.deepEqual(
      skillResources((await ada.discovery("lab"))?.resources ?? []).map((s) => s.name),
      ["star"],
    );
  });

  test("each user resolves skills through their own servers", async () => {
    const resolvers = createUserResolvers({ registry });
    try {
      const star = await resolvers.resolve("ada", "star");
      assert.equal(star.source, "mcp:lab");
      assert.equal((await resolvers.resolve("bob", "bwa")).source, "mcp:lab");
      assert.equal((await resolvers.resolve("carol", "bwa")).source, "mcp:docs");
      // star and bwa are built-ins too: who does not reach a server with them gets those
      assert.equal((await resolvers.resolve("carol", "star")).source, "builtin");
      assert.equal((await resolvers.resolve("bob", "star")).source, "builtin");
    } finally {
      await resolvers.dispose();
    }
  });

  test("remove deletes the record, its indexes and its cache", async () => {
    const ada = registry.forUser("ada");
    const lab = (await ada.get("lab"))!;
    await ada.remove("lab");
    await ada.remove("dead");
    const left = (await admin.keys("*")).filter((k) => k.includes(lab.id));
    assert.deepEqual(left, []);
    assert.deepEqual((await ada.list()).map((s) => s.name), ["docs", "builtin-skills"]);
  });
});

describe("service defaults", () => {
  const plain = createMultiUserRegistry({ storage: createMemoryStorage() });

  test("strict URL policy: no loopback or private hosts, https only", async () => {
    const error = await plain.forUser("ada").add({ name: "x", url: "http://127.0.0.1:1/mcp" })
      .catch((e) => e);
    assert.equal(error.name, "PolicyError");
  });

  test("no stdio servers, no ${VAR} from the service's environment", async () => {
    const ada = plain.forUser("ada");
    const stdio = await ada.add({ name: "x", command: "rm", args: ["-rf", "/"] }).catch((e) => e);
    assert.match(stdio.message, /stdio servers are not allowed/);
    const env = await ada.add({ name: "x", url: "https://x.example.com/mcp", apiKey: "${HOME}" })
      .catch((e) => e);
    assert.match(env.message, /HOME/);
    assert.deepEqual(await ada.list().then((l) => l.map((s) => s.id)), ["builtin:skills"]);
  });

  test("user ids are checked", () => {
    assert.throws(() => plain.forUser(""), TypeError);
    assert.throws(() => plain.forUser("@global"), /reserved/);
    assert.doesNotThrow(() => plain.forUser("ada@example.org/../x"));
  });
});
