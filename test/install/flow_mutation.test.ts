// Install, update and uninstall decisions no test held under mutation: a name given twice (in any
// case) is one change, an update with nothing installed asks the registry nothing, a skill whose
// file was deleted is installed again (not "unchanged"), a new version with the same bytes is an
// update, a locked skill present only as `.toml` is a conflict, a supporting file that changed
// makes an update, and uninstall reports what it removes. Through the public "./install" entry
// against a real registry on 127.0.0.1 (./_registry.ts) and a real community folder.
import assert from "node:assert/strict";
import { readdir, rm, writeFile } from "node:fs/promises";
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
  assert.deepEqual(actions(await updateSkills([], options())), ["pdf-tools:unchanged"]);
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
