// How a storage source finds a skill (lib/resolve/storage_source.ts), over real files and memory
// storage: `x.md`, then `x/SKILL.md`, then `x.toml`, the first on disk winning and removing it
// revealing the next; a skill moved to another layout reports its new location; and every `get`
// and `keys` of a lookup and a listing gets the caller's signal.
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createMemoryStorage, createStorageSource } from "../../lib/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";
import { skillDoc } from "./_helpers.ts";

describe("the layouts in order", () => {
  after(removeTempDirs);

  const markdown = (where: string) =>
    `---\nname: fastp\ndescription: From ${where}. Use when trimming reads.\n---\n\n## Concepts\n\n- One.\n`;
  const toml =
    '[meta]\nname = "fastp"\ndescription = "From fastp.toml. Use when trimming reads."\n';

  /** Resolve `fastp` from a fresh source over `root`: where it was found and what it said. */
  async function lookup(root: string): Promise<[string | undefined, string]> {
    const user = createStorageSource({ label: "user", storage: createFsStorage({ root }) });
    const hit = await createResolver({ sources: [user] }).resolve("fastp");
    return [hit.location, hit.skill.description];
  }

  test("x.md before x/SKILL.md before x.toml", async () => {
    const root = await makeTempDir("skillmux-order-");
    await mkdir(join(root, "fastp"));
    await writeFile(join(root, "fastp.toml"), toml);
    await writeFile(join(root, "fastp", "SKILL.md"), markdown("fastp/SKILL.md"));
    await writeFile(join(root, "fastp.md"), markdown("fastp.md"));

    assert.deepEqual(await lookup(root), [
      "fastp.md",
      "From fastp.md. Use when trimming reads.",
    ]);
    await rm(join(root, "fastp.md"));
    assert.deepEqual(await lookup(root), [
      "fastp/SKILL.md",
      "From fastp/SKILL.md. Use when trimming reads.",
    ]);
    await rm(join(root, "fastp"), { recursive: true });
    assert.deepEqual(await lookup(root), [
      "fastp.toml",
      "From fastp.toml. Use when trimming reads.",
    ]);
  });
});

describe("a moved skill", () => {
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
});

describe("the caller's signal", () => {
  test("the caller's signal reaches every storage get and keys", async () => {
    const storage = createMemoryStorage({ initial: { "bwa/SKILL.md": skillDoc("bwa") } });
    const signals: Array<[string, AbortSignal | undefined]> = [];
    const get = storage.get.bind(storage);
    const keys = storage.keys.bind(storage);
    storage.get = (
      key,
      options,
    ) => (signals.push([`get ${key}`, options?.signal]), get(key, options));
    storage.keys = (prefix, options) => (
      signals.push([`keys ${prefix}`, options?.signal]), keys(prefix, options)
    );
    const source = createStorageSource({ label: "user", storage });
    const signal = new AbortController().signal;
    assert.equal((await source.get("bwa", { signal }))?.location, "bwa/SKILL.md");
    assert.deepEqual(await source.list({ signal }), ["bwa"]);
    assert.deepEqual(signals.map(([call]) => call), [
      "get bwa.md",
      "get bwa/SKILL.md",
      "keys bwa/",
      "keys ",
    ]);
    for (const [call, seen] of signals) assert.equal(seen, signal, call);
  });
});
