// Per-user resolvers over a multi-user registry and real MCP servers: each user's chain is
// their own, caches never serve one user's skill or server listing to another.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createMultiUserRegistry, type MultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createUserResolvers, type UserResolvers } from "../../lib/resolve/users.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
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
