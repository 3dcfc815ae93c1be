// A folder source looks a skill up as `x.md`, then `x/SKILL.md`, then `x.toml`: with all three
// on disk the first wins, and removing it reveals the next. Real files, the filesystem adapter.
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";

after(removeTempDirs);

const markdown = (where: string) =>
  `---\nname: fastp\ndescription: From ${where}. Use when trimming reads.\n---\n\n## Concepts\n\n- One.\n`;
const toml = '[meta]\nname = "fastp"\ndescription = "From fastp.toml. Use when trimming reads."\n';

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
