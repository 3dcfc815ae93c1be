// Rules of community install (issue 19), through the public "./install" entry against a real
// registry on 127.0.0.1 (./_registry.ts) and a real community folder: a new digest under the
// same version is an update, an unchanged folder skill downloads nothing, a file of exactly
// maxFileBytes is accepted, a name listed three times stays uninstallable, `../` paths are refused.
import assert from "node:assert/strict";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test } from "node:test";
import {
  fetchRegistryIndex,
  type InstallError,
  installSkills,
  isInstallError,
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

useRegistry("skillmux-install-rules-", (r, d) => {
  registry = r;
  dir = d;
});

/** Serve a folder skill `pdf-tools` at `version` with one script; its index entry. */
async function publishFolder(version: string, script = "print('extract')\n") {
  const doc = skillText("pdf-tools", version);
  registry.files.set("pkg/pdf-tools/SKILL.md", doc);
  registry.files.set("pkg/pdf-tools/scripts/extract.py", script);
  return {
    name: "pdf-tools",
    description: "PDF tools",
    version,
    digest: await digestOf(doc),
    url: "pkg/pdf-tools/SKILL.md",
    files: [{
      path: "scripts/extract.py",
      url: "pkg/pdf-tools/scripts/extract.py",
      digest: await digestOf(script),
    }],
  };
}

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
  setIndex(registry, [await publishFolder("0.3.0")]);
  await installSkills(["pdf-tools"], options());
  registry.requests.length = 0;
  const result = await updateSkills([], options());
  assert.deepEqual(result.changes.map((c) => [c.name, c.action]), [["pdf-tools", "unchanged"]]);
  assert.deepEqual(registry.requests, ["index.json"], "only the index was read");
});

test("a file of exactly maxFileBytes, declared in Content-Length, is accepted", async () => {
  const entry = await publish(registry, "kraken2", "1.0.0");
  setIndex(registry, [entry]);
  const size = new TextEncoder().encode(skillText("kraken2", "1.0.0")).byteLength;
  const result = await installSkills(["kraken2"], { ...options(), maxFileBytes: size });
  assert.deepEqual(result.changes.map((c) => c.action), ["install"]);
  // One byte less is refused, so the cap is really in force at this size.
  await rm(dirname(dir), { recursive: true, force: true });
  await assert.rejects(
    installSkills(["kraken2"], { ...options(), maxFileBytes: size - 1 }),
    (e: unknown) => isInstallError(e) && (e as InstallError).code === "too-large",
  );
});

test("a name listed three times in the index stays uninstallable", async () => {
  const entry = await publish(registry, "kraken2", "1.0.0");
  setIndex(registry, [entry, { ...entry, version: "1.0.1" }, { ...entry, version: "1.0.2" }]);
  const index = await fetchRegistryIndex(options());
  assert.equal(index.skills.has("kraken2"), false);
  await assert.rejects(installSkills(["kraken2"], options()), (e: unknown) => {
    assert.ok(isInstallError(e), String(e));
    assert.equal((e as InstallError).code, "invalid-index");
    assert.match((e as Error).message, /listed more than once/);
    return true;
  });
  assert.deepEqual(await readdir(dir).catch(() => []), []);
});

test("a file path with a single leading .. is refused in the index", async () => {
  const entry = await publishFolder("0.3.0");
  registry.files.set("pkg/escape.txt", "outside\n");
  entry.files[0] = {
    path: "../escape.txt",
    url: "pkg/escape.txt",
    digest: await digestOf("outside\n"),
  };
  setIndex(registry, [entry]);
  const index = await fetchRegistryIndex(options());
  assert.equal(index.skills.has("pdf-tools"), false);
  assert.match(index.problems[0]?.message ?? "", /files\.0\.path must be a relative path/);
  await assert.rejects(installSkills(["pdf-tools"], options()), /relative path/);
  assert.deepEqual(await readdir(dirname(dir)), [], "nothing written beside the folder");
});
