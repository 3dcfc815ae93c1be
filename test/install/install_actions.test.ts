// Which action install, update and uninstall take for each skill: a name given twice (in any
// case) is one change, an update with nothing installed asks the registry nothing, a deleted
// file is installed again, a new version or a new digest under the same version is an update, an
// unchanged skill downloads nothing, a `.toml`-only locked skill is a conflict, a changed
// supporting file makes an update, uninstall reports what it removes; refusals name the skill and
// the registry. Through the public "./install" entry against a real registry on 127.0.0.1
// (./_registry.ts) and a real community folder.
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import {
  type InstallError,
  installSkills,
  isInstallError,
  readLockFile,
  uninstallSkills,
  updateSkills,
} from "../../lib/install/mod.ts";
import {
  digestOf,
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

useRegistry("skillmux-flow-", (r, d) => {
  registry = r;
  dir = d;
});

const actions = (result: { changes: { name: string; action: string }[] }) =>
  result.changes.map((c) => `${c.name}:${c.action}`);

test("a name given twice, in any case, is one change; an update of nothing asks nothing", async () => {
  setIndex(registry, [await publish(registry, "kraken2", "1")]);
  const result = await installSkills(["kraken2", "KRAKEN2", "kraken2"], options());
  assert.deepEqual(actions(result), ["kraken2:install"]);
  assert.equal(result.dryRun, false);
  await uninstallSkills(["kraken2"], { communityDir: dir });
  registry.requests.length = 0;
  const none = await updateSkills([], options());
  assert.deepEqual(none, { changes: [], dryRun: false });
  assert.deepEqual(registry.requests, [], "no index download");
  assert.deepEqual(await updateSkills([], { ...options(), dryRun: true }), {
    changes: [],
    dryRun: true,
  });
});

test("deleted, re-versioned, .toml-only and changed-file skills each get the right action", async () => {
  setIndex(registry, [await publish(registry, "kraken2", "1")]);
  await installSkills(["kraken2"], options());
  await rm(join(dir, "kraken2.md"));
  const again = await updateSkills(["kraken2"], options());
  assert.deepEqual(actions(again), ["kraken2:install"], "a deleted file is installed again");
  assert.deepEqual(await readdir(dir), ["kraken2.md", "skillmux-lock.json"]);

  const same = skillText("kraken2", "1");
  setIndex(registry, [await publish(registry, "kraken2", "1.0.1", same)]);
  const bumped = await updateSkills([], options());
  assert.deepEqual(
    bumped.changes.map((c) => [c.action, c.from, c.to]),
    [["update", "1", "1.0.1"]],
    "a new version with the same bytes is an update",
  );
  assert.equal((await readLockFile(dir))[0].version, "1.0.1");

  // A .toml holding the very bytes that were installed is still not the installed copy.
  await rm(join(dir, "kraken2.md"));
  await writeFile(join(dir, "kraken2.toml"), same);
  const error = await updateSkills([], options()).then(() => undefined, (e) => e);
  assert.ok(isInstallError(error));
  assert.equal((error as InstallError).code, "conflict");
  assert.match((error as Error).message, /^Skill "kraken2" \(kraken2\.toml\) was changed since/);
});

test("a supporting file that changed under the same version makes an update", async () => {
  const doc = skillText("pdf-tools", "1");
  registry.files.set("pkg/SKILL.md", doc);
  const entry = async (script: string) => {
    registry.files.set("pkg/run.py", script);
    return {
      name: "pdf-tools",
      description: "PDF tools",
      version: "1",
      digest: await digestOf(doc),
      url: "pkg/SKILL.md",
      files: [{ path: "run.py", url: "pkg/run.py", digest: await digestOf(script) }],
    };
  };
  setIndex(registry, [await entry("print(1)\n")]);
  await installSkills(["pdf-tools"], options());
  const unchanged = await updateSkills([], options());
  assert.deepEqual(unchanged.changes.map((c) => [c.action, c.path]), [[
    "unchanged",
    "pdf-tools/SKILL.md",
  ]]);
  setIndex(registry, [await entry("print(2)\n")]);
  assert.deepEqual(actions(await updateSkills([], options())), ["pdf-tools:update"]);
  const lock = await readLockFile(dir);
  assert.deepEqual(lock[0].files, { "run.py": (await digestOf("print(2)\n")).slice(7) });
  const extra = await entry("print(2)\n");
  setIndex(registry, [{
    ...extra,
    files: [...extra.files, { path: "more.py", url: "pkg/run.py", digest: extra.files[0].digest }],
  }]);
  assert.deepEqual(actions(await updateSkills([], options())), ["pdf-tools:update"]);
  setIndex(registry, [extra]);
  assert.deepEqual(actions(await updateSkills([], options())), ["pdf-tools:update"], "a file less");
});

test("uninstall reports the version and path it removes; a folder copy without a lock entry goes too", async () => {
  setIndex(registry, [await publish(registry, "kraken2", "3")]);
  await installSkills(["kraken2"], options());
  await writeFile(join(dir, "bracken.md"), skillText("bracken"));
  const dry = await uninstallSkills(["kraken2", "bracken"], { communityDir: dir, dryRun: true });
  assert.deepEqual(dry.changes, [
    { name: "kraken2", action: "uninstall", from: "3", path: "kraken2.md" },
    { name: "bracken", action: "uninstall", from: undefined, path: "bracken.md" },
  ]);
  assert.equal(dry.dryRun, true);
  const done = await uninstallSkills(["kraken2", "bracken"], { communityDir: dir });
  assert.equal(done.dryRun, false);
  assert.deepEqual(await readdir(dir), ["skillmux-lock.json"]);
});

test("a locked skill whose files are gone is uninstalled: empty path, lock entry dropped", async () => {
  setIndex(registry, [await publish(registry, "kraken2", "2")]);
  await installSkills(["kraken2"], options());
  await rm(join(dir, "kraken2.md"));
  const result = await uninstallSkills(["kraken2"], { communityDir: dir });
  assert.deepEqual(result.changes, [{ name: "kraken2", action: "uninstall", from: "2", path: "" }]);
  assert.deepEqual(await readLockFile(dir), []);
});

test("update goes through the lock's skills by name, whatever order the file has", async () => {
  setIndex(registry, [await publish(registry, "zeta", "1"), await publish(registry, "alpha", "1")]);
  await installSkills(["zeta", "alpha"], options());
  const file = join(dir, "skillmux-lock.json");
  const lock = JSON.parse(await readFile(file, "utf8"));
  const { alpha, zeta } = lock.skills;
  await writeFile(file, JSON.stringify({ version: 1, skills: { zeta, alpha } }));
  const result = await updateSkills([], { ...options(), dryRun: true });
  assert.deepEqual(actions(result), ["alpha:unchanged", "zeta:unchanged"]);
  assert.deepEqual(result.changes.map((c) => c.path), ["alpha.md", "zeta.md"]);
  assert.equal("files" in (await readLockFile(dir))[0], false, "a single file records no files");
});

test("each refusal names its skill, and the registry where it looked", async () => {
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => undefined, (e) => e);
    assert.ok(isInstallError(error), `not an InstallError: ${error}`);
    return error as InstallError;
  };
  setIndex(registry, [await publish(registry, "kraken2", "1")]);
  const missing = await failure(installSkills(["nope"], options()));
  assert.deepEqual([missing.code, missing.skill, missing.url], [
    "not-found",
    "nope",
    `${registry.url}index.json`,
  ]);
  const notLocked = await failure(updateSkills(["kraken2"], options()));
  assert.deepEqual([notLocked.code, notLocked.skill, notLocked.message], [
    "not-installed",
    "kraken2",
    'Skill "kraken2" was not installed by skill install (it is not in the lock file); use skill install',
  ]);
  const absent = await failure(uninstallSkills(["kraken2"], { communityDir: dir }));
  assert.deepEqual([absent.code, absent.skill], ["not-installed", "kraken2"]);

  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "kraken2.md"), "mine");
  const foreign = await failure(installSkills(["kraken2"], options()));
  assert.deepEqual([foreign.code, foreign.skill], ["conflict", "kraken2"]);
  await installSkills(["kraken2"], { ...options(), force: true });
  await writeFile(join(dir, "kraken2.md"), "edited");
  const edited = await failure(updateSkills(["kraken2"], options()));
  assert.deepEqual([edited.code, edited.skill, edited.message], [
    "conflict",
    "kraken2",
    'Skill "kraken2" (kraken2.md) was changed since it was installed; use --force ' +
    "(force: true) to replace your changes",
  ]);

  const badName = await failure(installSkills(["../x"], options()));
  assert.equal(badName.code, "invalid-name");
  assert.ok(badName.cause instanceof Error, "the name check's error is the cause");
  assert.equal(badName.message, (badName.cause as Error).message);
});

test("the same version with a new digest is not reported unchanged", async () => {
  setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
  await installSkills(["kraken2"], options());
  const republished = skillText("kraken2", "1.0.0, rebuilt");
  setIndex(registry, [await publish(registry, "kraken2", "1.0.0", republished)]);
  const result = await updateSkills([], options());
  assert.deepEqual(result.changes.map((c) => [c.name, c.action, c.to]), [
    ["kraken2", "update", "1.0.0"],
  ]);
  assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), republished);
});

test("an unchanged folder skill reports unchanged and downloads nothing", async () => {
  setIndex(registry, [await folderSkill(registry, "pdf-tools", "0.3.0")]);
  await installSkills(["pdf-tools"], options());
  registry.requests.length = 0;
  const result = await updateSkills([], options());
  assert.deepEqual(result.changes.map((c) => [c.name, c.action]), [["pdf-tools", "unchanged"]]);
  assert.deepEqual(registry.requests, ["index.json"], "only the index was read");
});
