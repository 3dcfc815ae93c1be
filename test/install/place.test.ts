// Placing and checking installed skills: an update that changes layout (folder ↔ single file)
// leaves exactly one layout and no staging folder, a stale `.toml` of the name goes, uninstall
// removes every layout; a supporting file that fails its digest is named, a document that is not
// UTF-8 is refused, and each download refusal names its skill. Through the public "./install"
// entry against a real registry on 127.0.0.1 (./_registry.ts) and a real community folder.
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { installSkills, uninstallSkills, updateSkills } from "../../lib/install/mod.ts";
import {
  failure,
  folderSkill,
  publish,
  setIndex,
  skillText,
  type TestRegistry,
  useRegistry,
} from "./_registry.ts";

let registry: TestRegistry;
let dir: string;
const options = () => ({ registry: registry.url, communityDir: dir, retries: 0 });

useRegistry("skillmux-place-", (r, d) => {
  registry = r;
  dir = d;
});

const listDir = async (path = dir) => (await readdir(path).catch(() => [])).sort();

test("an update that changes layout leaves one layout, and no staging folder, each way", async () => {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "kraken2.toml"), 'name = "kraken2"\n');
  setIndex(registry, [await folderSkill(registry, "kraken2", "1")]);
  const first = await installSkills(["kraken2"], { ...options(), force: true });
  assert.deepEqual(first.changes.map((c) => c.path), ["kraken2/SKILL.md"]);
  assert.deepEqual(await listDir(), ["kraken2", "skillmux-lock.json"], "the stale .toml goes");
  assert.deepEqual(await listDir(join(dir, "kraken2")), ["SKILL.md", "bin"]);
  assert.equal(await readFile(join(dir, "kraken2", "bin", "run.py"), "utf8"), "print(1)\n");

  setIndex(registry, [await publish(registry, "kraken2", "2")]);
  const single = await updateSkills(["kraken2"], options());
  assert.deepEqual(single.changes.map((c) => [c.action, c.path]), [["update", "kraken2.md"]]);
  assert.deepEqual(await listDir(), ["kraken2.md", "skillmux-lock.json"]);

  setIndex(registry, [await folderSkill(registry, "kraken2", "3", "print(3)\n")]);
  const folder = await updateSkills(["kraken2"], options());
  assert.deepEqual(folder.changes.map((c) => [c.action, c.path]), [["update", "kraken2/SKILL.md"]]);
  assert.deepEqual(await listDir(), ["kraken2", "skillmux-lock.json"]);
  assert.equal(await readFile(join(dir, "kraken2", "SKILL.md"), "utf8"), skillText("kraken2", "3"));

  setIndex(registry, [await folderSkill(registry, "kraken2", "4", "print(4)\n")]);
  await updateSkills(["kraken2"], options());
  assert.deepEqual(await listDir(), ["kraken2", "skillmux-lock.json"], "the old folder is gone");
  assert.equal(await readFile(join(dir, "kraken2", "bin", "run.py"), "utf8"), "print(4)\n");

  await writeFile(join(dir, "kraken2.toml"), 'name = "kraken2"\n');
  await uninstallSkills(["kraken2"], { communityDir: dir });
  assert.deepEqual(await listDir(), ["skillmux-lock.json"], "every layout is removed");
});

test("a supporting file that fails its digest is named, and nothing is written", async () => {
  const entry = await folderSkill(registry, "pdf-tools", "1");
  registry.files.set("pkg/pdf-tools/run.py", "print('evil')\n");
  setIndex(registry, [entry]);
  const error = await failure(installSkills(["pdf-tools"], options()));
  assert.equal(error.code, "digest");
  assert.match(
    error.message,
    /^Skill "pdf-tools": bin\/run\.py from http:\/\/127\.0\.0\.1:\d+\/pkg\/pdf-tools\/run\.py has sha256:[0-9a-f]{64}, but the index says sha256:/,
  );
  assert.deepEqual(await listDir(), []);
});

test("a skill document that is not UTF-8 is refused", async () => {
  const bytes = "---\nname: kraken2\ndescription: caf\xe9\n---\n";
  registry.files.set("skills/kraken2.md", (_req, res) => {
    res.writeHead(200).end(Buffer.from(bytes, "latin1"));
  });
  const digest = `sha256:${
    Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", Buffer.from(bytes, "latin1"))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("")
  }`;
  setIndex(registry, [{
    name: "kraken2",
    description: "x",
    version: "1",
    digest,
    url: "skills/kraken2.md",
  }]);
  const error = await failure(installSkills(["kraken2"], options()));
  assert.equal(error.code, "invalid-skill");
  assert.match(
    error.message,
    /^Skill "kraken2" from http:\/\/127\.0\.0\.1:\d+\/index\.json is not UTF-8$/,
  );
  assert.equal(error.skill, "kraken2");
});

test("download refusals name the skill: a bad URL, a missing document, a wrong digest, a bad document", async () => {
  const ok = await publish(registry, "kraken2", "1");
  setIndex(registry, [{ ...ok, url: "http://[::1" }]);
  const badUrl = await failure(installSkills(["kraken2"], options()));
  assert.deepEqual([badUrl.code, badUrl.skill, badUrl.message], [
    "invalid-index",
    "kraken2",
    'Skill "kraken2": the skill document has a bad URL',
  ]);
  setIndex(registry, [{ ...ok, url: "skills/gone.md" }]);
  const gone = await failure(installSkills(["kraken2"], options()));
  assert.deepEqual([gone.code, gone.skill], ["not-found", "kraken2"]);
  assert.match(gone.message, /^Cannot download the skill document of skill "kraken2": http:/);

  const entry = await folderSkill(registry, "pdf-tools", "1");
  registry.files.set("pkg/pdf-tools/run.py", "print('evil')\n");
  setIndex(registry, [entry]);
  const digest = await failure(installSkills(["pdf-tools"], options()));
  assert.deepEqual([digest.skill, digest.url], [
    "pdf-tools",
    `${registry.url}pkg/pdf-tools/run.py`,
  ]);

  const broken = "---\nname: kraken2\n---\n";
  setIndex(registry, [await publish(registry, "kraken2", "1", broken)]);
  const parse = await failure(installSkills(["kraken2"], options()));
  assert.deepEqual([parse.code, parse.skill], ["invalid-skill", "kraken2"]);
  assert.match(parse.message, /^Cannot parse skill "kraken2" \(skills\/kraken2\.md\): /);
  assert.ok(parse.cause instanceof Error);
  setIndex(registry, [await publish(registry, "kraken2", "1", skillText("other"))]);
  const named = await failure(installSkills(["kraken2"], options()));
  assert.deepEqual([named.code, named.skill], ["invalid-skill", "kraken2"]);
});
