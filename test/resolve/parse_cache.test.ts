// The resolver's caches: a warm resolve answers from memory after one metadata check, an
// unchanged list() parses nothing, and an edit is never hidden (same size, same second, a new
// file of a higher-priority layout, a miss that becomes a hit).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  createMemoryStorage,
  createResolver,
  createStorageSource,
  type SkillSource,
} from "../../lib/mod.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { counted } from "./_helpers.ts";

const doc = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}. Use when testing.\n---\nBody\n`;

test("a warm resolve reads nothing and returns the same frozen skill", async () => {
  const { storage, gets } = counted(
    createMemoryStorage({ initial: { "a.md": doc("a", "First") } }),
  );
  const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
  const first = await resolver.resolve("a");
  const reads = gets.length;
  const second = await resolver.resolve("a");
  assert.equal(gets.length, reads, "no read on the warm call");
  assert.equal(second.skill, first.skill);
  assert.ok(Object.isFrozen(first.skill) && Object.isFrozen(first.skill.tags));
  assert.throws(() => (first.skill.tags as string[]).push("x"), TypeError);
  await storage.set("a.md", doc("a", "Second"));
  assert.match((await resolver.resolve("a")).skill.description, /^Second/);
});

test("an unchanged list() parses nothing; a changed entry is parsed again", async () => {
  let text = doc("b", "One");
  let reads = 0;
  const source: SkillSource = {
    label: "team",
    get: () => (reads++, Promise.resolve({ text })),
    list: () => Promise.resolve(["b"]),
  };
  const resolver = createResolver({ sources: [source] });
  const [first] = (await resolver.list()).skills;
  const [again] = (await resolver.list()).skills;
  assert.equal(again.skill, first.skill, "same text: the parsed skill is reused");
  assert.equal(reads, 2);
  text = doc("b", "Two");
  const [changed] = (await resolver.list()).skills;
  assert.notEqual(changed.skill, first.skill);
  assert.match(changed.description, /^Two/);
});

test("misses and lower layouts never hide a new file", async () => {
  const storage = createMemoryStorage({ initial: { "c.toml": "" } });
  await storage.set(
    "c.toml",
    '[meta]\nname = "c"\ndescription = "From TOML. Use when testing."\n',
  );
  const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
  assert.match((await resolver.resolve("c")).skill.description, /^From TOML/);
  await storage.set("c.md", doc("c", "From Markdown"));
  assert.match((await resolver.resolve("c")).skill.description, /^From Markdown/);
  await assert.rejects(resolver.resolve("d"), /Cannot find skill "d"/);
  await storage.set("d/SKILL.md", doc("d", "A folder skill"));
  assert.match((await resolver.resolve("d")).skill.description, /^A folder skill/);
});

test("fs: an edit of the same size in the same instant is seen, and so is one after settling", async () => {
  const root = await mkdtemp(join(tmpdir(), "skillmux-cache-"));
  try {
    const file = join(root, "e.md");
    await writeFile(file, doc("e", "Alpha"));
    const { storage, gets } = counted(createFsStorage({ root }));
    const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
    assert.match((await resolver.resolve("e")).skill.description, /^Alpha/);
    await writeFile(file, doc("e", "Bravo")); // same length, within the timestamp granularity
    assert.match((await resolver.resolve("e")).skill.description, /^Bravo/);

    await new Promise((resolve) => setTimeout(resolve, 2_100)); // let the file settle
    await resolver.resolve("e"); // remembered now that its timestamps can be trusted
    const before = gets.length;
    await resolver.resolve("e");
    assert.equal(gets.length, before, "a settled, unchanged file is not read again");
    await writeFile(file, doc("e", "Delta"));
    assert.match((await resolver.resolve("e")).skill.description, /^Delta/);
    await assert.rejects(resolver.resolve("f"));
    await writeFile(join(root, "f.md"), doc("f", "New"));
    assert.match((await resolver.resolve("f")).skill.description, /^New/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("fs version(): tags change with the value and with a folder's entries", async () => {
  const root = await mkdtemp(join(tmpdir(), "skillmux-version-"));
  try {
    const storage = createFsStorage({ root });
    assert.equal(await storage.version!("a.md"), undefined);
    await storage.set("a.md", "one");
    const first = await storage.version!("a.md");
    const folder = await storage.version!("");
    assert.equal(first?.settled, false, "just written: not settled");
    await storage.set("a.md", "two");
    assert.notEqual((await storage.version!("a.md"))?.tag, first?.tag);
    await storage.set("b.md", "new");
    assert.notEqual((await storage.version!(""))?.tag, folder?.tag);
    assert.equal(await storage.version!("a.md/"), undefined, "a file is not a folder");
    await assert.rejects(storage.version!("../x"), /not a valid|invalid/i);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
