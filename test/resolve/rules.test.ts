// Rules of the resolver's caches (issue 19), on real files, memory storage and real MCP SDK
// servers on 127.0.0.1: a SKILL.md added inside an existing `x/` folder beats a cached `x.toml`,
// a skill moved to another layout with identical text reports its new location, and after a
// server's URL is updated every user's resolves use the new URL.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { createMultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createUserResolvers } from "../../lib/resolve/users.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { startSdkServer } from "../mcp/_servers.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";
import { skillDoc } from "./_helpers.ts";

after(removeTempDirs);

/** Past the filesystem adapter's settling time, so its fingerprints are trusted. */
const SETTLED_MS = 2_300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a SKILL.md added inside an existing x/ folder beats a cached x.toml", async () => {
  const root = await makeTempDir("skillmux-rules-blind-");
  await mkdir(join(root, "fastp", "scripts"), { recursive: true });
  await writeFile(join(root, "fastp", "scripts", "run.sh"), "echo run\n");
  await writeFile(
    join(root, "fastp.toml"),
    '[meta]\nname = "fastp"\ndescription = "From fastp.toml. Use when trimming."\n',
  );
  await pause(SETTLED_MS);
  const user = createStorageSource({ label: "user", storage: createFsStorage({ root }) });
  const resolver = createResolver({ sources: [user] });
  assert.equal((await resolver.resolve("fastp")).location, "fastp.toml");
  assert.equal((await resolver.resolve("fastp")).location, "fastp.toml", "a warm resolve");
  // Inside the existing folder: the root folder's own fingerprint does not change.
  await writeFile(join(root, "fastp", "SKILL.md"), skillDoc("fastp", "From the folder."));
  const hit = await resolver.resolve("fastp");
  assert.equal(hit.location, "fastp/SKILL.md");
  assert.equal(hit.skill.description, "From the folder.");
});

test("a skill moved to another layout with identical text reports its new location", async () => {
  const text = skillDoc("fastp");
  const storage = createMemoryStorage({ initial: { "fastp.md": text } });
  const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
  assert.equal((await resolver.resolve("fastp")).location, "fastp.md");
  await storage.set("fastp/SKILL.md", text);
  await storage.delete("fastp.md");
  const moved = await resolver.resolve("fastp");
  assert.equal(moved.location, "fastp/SKILL.md");
  assert.equal(moved.skill.description, "The fastp skill. Use when testing fastp.");
});

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
