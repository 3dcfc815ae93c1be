// What a storage source remembers between reads (lib/resolve/_entry_cache.ts), counted in the
// storage's reads over memory storage and real files: a miss is remembered until a file is added
// beside it; hits are not read again while nothing changes; a storage without version() is read
// every time; the caller's signal reaches version(); and on disk, a miss beside a `<name>/` folder
// is never remembered, so a SKILL.md added inside an existing folder beats a cached `x.toml`.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createMemoryStorage, createStorageSource, type Storage } from "../../lib/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";
import { counted, skillDoc } from "./_helpers.ts";

describe("what a storage source remembers", () => {
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: ${name} notes. Use when testing.\n---\nBody\n`;

  const call = () => ({ signal: new AbortController().signal });

  test("a miss is remembered (no read) until a file is added; then it is found", async () => {
    const { storage, gets } = counted(createMemoryStorage({ initial: { "a.md": doc("a") } }));
    const source = createStorageSource({ label: "user", storage });
    assert.equal(await source.get("nope", call()), undefined);
    const reads = gets.length;
    assert.equal(reads, 3, "the three layouts");
    assert.equal(await source.get("nope", call()), undefined);
    assert.equal(gets.length, reads, "the remembered miss reads nothing");
    await storage.set("nope.md", doc("nope"));
    assert.equal((await source.get("nope", call()))?.location, "nope.md");
  });

  test("two names are remembered side by side", async () => {
    const { storage, gets } = counted(createMemoryStorage({ initial: { "a.md": doc("a") } }));
    const source = createStorageSource({ label: "user", storage });
    await source.get("a", call());
    await source.get("nope", call());
    const reads = gets.length;
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal(await source.get("nope", call()), undefined);
    assert.equal(gets.length, reads);
  });

  test("a storage whose version() knows folders only: hits are read every time, and answer", async () => {
    const { storage, gets } = counted(createMemoryStorage({ initial: { "a.md": doc("a") } }));
    const version = storage.version!.bind(storage);
    storage.version = (path, options) =>
      path === "" || path.endsWith("/") ? version(path, options) : Promise.resolve(undefined);
    const source = createStorageSource({ label: "user", storage });
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.deepEqual(gets, ["a.md", "a.md"]);
  });

  test("under a prefix that is not a folder (skills/team-), a miss is remembered too", async () => {
    const { storage, gets } = counted(
      createMemoryStorage({ initial: { "skills/team-a.md": doc("a") } }),
    );
    const source = createStorageSource({ label: "team", storage, prefix: "skills/team-" });
    assert.equal(await source.get("nope", call()), undefined);
    const reads = gets.length;
    assert.equal(await source.get("nope", call()), undefined);
    assert.equal(gets.length, reads, "the folder skills/ is watched");
    await storage.set("skills/team-nope.md", doc("nope"));
    assert.equal((await source.get("nope", call()))?.location, "skills/team-nope.md");
  });

  test("a hit of a.md beside an a/ folder is not read again when a file is added; nor b/SKILL.md", async () => {
    const { storage, gets } = counted(createMemoryStorage({
      initial: { "a.md": doc("a"), "a/notes.txt": "notes", "b/SKILL.md": doc("b") },
    }));
    const source = createStorageSource({ label: "user", storage });
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal((await source.get("b", call()))?.location, "b/SKILL.md");
    let reads = gets.length;
    assert.equal((await source.get("b", call()))?.location, "b/SKILL.md");
    assert.equal(gets.length, reads, "b/SKILL.md is remembered while nothing changes");
    // A new b.md would overtake b/SKILL.md, so b's folder is watched; a.md's is not.
    await storage.set("c.md", doc("c"));
    reads = gets.length;
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal(gets.length, reads, "only a.md's own fingerprint is checked");
  });

  test("a remembered miss in a folder that was emptied is still a miss", async () => {
    const storage = createMemoryStorage({ initial: { "skills/a.md": doc("a") } });
    const source = createStorageSource({ label: "user", storage, prefix: "skills/" });
    assert.equal(await source.get("nope", call()), undefined);
    await storage.delete("skills/a.md");
    assert.equal(await storage.version!("skills/"), undefined, "the folder has no fingerprint now");
    assert.equal(await source.get("nope", call()), undefined);
  });

  test("a storage without version() is read every time, and answers", async () => {
    const { storage: inner, gets } = counted(
      createMemoryStorage({ initial: { "a.md": doc("a") } }),
    );
    const storage: Storage = {
      get: (key, options) => inner.get(key, options),
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key, options) => inner.delete(key, options),
      keys: (prefix, options) => inner.keys(prefix, options),
    };
    const source = createStorageSource({ label: "user", storage });
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal((await source.get("a", call()))?.location, "a.md");
    assert.equal(await source.get("nope", call()), undefined);
    assert.equal(await source.get("nope", call()), undefined);
    assert.deepEqual(gets, ["a.md", "a.md", "nope.md", "nope/SKILL.md", "nope.toml", ...[
      "nope.md",
      "nope/SKILL.md",
      "nope.toml",
    ]]);
  });

  test("the caller's signal reaches version()", async () => {
    const storage = createMemoryStorage({ initial: { "a.md": doc("a") } });
    const signals: (AbortSignal | undefined)[] = [];
    const version = storage.version!.bind(storage);
    storage.version = (path, options) => (signals.push(options?.signal), version(path, options));
    const source = createStorageSource({ label: "user", storage });
    const { signal } = call();
    await source.get("a", { signal });
    assert.ok(signals.length > 0);
    for (const seen of signals) assert.equal(seen, signal);
  });

  test("fs: a miss beside a <name>/ folder is never remembered, so a SKILL.md added there is found", async () => {
    const root = await mkdtemp(join(tmpdir(), "skillmux-blind-"));
    try {
      await mkdir(join(root, "x"));
      await writeFile(join(root, "x", "notes.txt"), "not a skill yet");
      await writeFile(join(root, "a.md"), doc("a"));
      await new Promise((resolve) => setTimeout(resolve, 2_100)); // let the folder settle
      const source = createStorageSource({ label: "user", storage: createFsStorage({ root }) });
      assert.equal(await source.get("x", call()), undefined);
      assert.equal(await source.get("x", call()), undefined);
      await writeFile(join(root, "x", "SKILL.md"), doc("x"));
      assert.equal((await source.get("x", call()))?.location, "x/SKILL.md");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("a SKILL.md added inside an existing folder on disk", () => {
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
});
