// Community install from code, against a real registry on 127.0.0.1: install, update, dry runs,
// wrong digests, 404s, a 50 MB file, bad and duplicate names, conflicts, uninstall, the URL policy.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, beforeEach, describe, test } from "node:test";
import {
  fetchRegistryIndex,
  type InstallError,
  installSkills,
  isInstallError,
  readLockFile,
  registryIndexUrl,
  uninstallSkills,
  updateSkills,
} from "../../lib/install/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import {
  digestOf,
  hugeBody,
  publish,
  setIndex,
  skillText,
  startRegistry,
  type TestRegistry,
} from "./_registry.ts";

let registry: TestRegistry;
let dir: string;
const options = () => ({ registry: registry.url, communityDir: dir, retries: 0 });

/** Rejects with an InstallError of `code` whose message matches `pattern`. */
async function rejectsWith(promise: Promise<unknown>, code: string, pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isInstallError(error), `not an InstallError: ${error}`);
    assert.equal((error as InstallError).code, code, (error as Error).message);
    assert.match((error as Error).message, pattern);
    return true;
  });
}

const listDir = async () => (await readdir(dir).catch(() => [])).sort();

before(async () => {
  registry = await startRegistry();
});
after(async () => {
  await registry.close();
});
beforeEach(async () => {
  registry.files.clear();
  registry.requests.length = 0;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = join(await mkdtemp(join(tmpdir(), "skillmux-install-")), "community");
});

describe("installSkills", () => {
  test("installs a single-file and a folder skill, records them in the lock, resolves them", async () => {
    const folderDoc = skillText("pdf-tools", "folder");
    const script = "print('extract')\n";
    registry.files.set("pkg/pdf-tools/SKILL.md", folderDoc);
    registry.files.set("pkg/pdf-tools/scripts/extract.py", script);
    setIndex(registry, [
      await publish(registry, "kraken2", "1.0.0"),
      {
        name: "pdf-tools",
        description: "PDF tools",
        version: "0.3.0",
        digest: await digestOf(folderDoc),
        url: "pkg/pdf-tools/SKILL.md",
        files: [{
          path: "scripts/extract.py",
          url: `${registry.url}pkg/pdf-tools/scripts/extract.py`,
          digest: await digestOf(script),
        }],
      },
    ]);
    const result = await installSkills(["kraken2", "PDF-Tools"], options());
    assert.deepEqual(result.changes.map((c) => [c.name, c.action, c.to, c.path]), [
      ["kraken2", "install", "1.0.0", "kraken2.md"],
      ["pdf-tools", "install", "0.3.0", "pdf-tools/SKILL.md"],
    ]);
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "1.0.0"));
    assert.equal(await readFile(join(dir, "pdf-tools", "scripts", "extract.py"), "utf8"), script);
    assert.deepEqual(await listDir(), ["kraken2.md", "pdf-tools", "skillmux-lock.json"]);
    const lock = await readLockFile(dir);
    assert.deepEqual(lock.map((e) => [e.name, e.version, e.source]), [
      ["kraken2", "1.0.0", `${registry.url}index.json`],
      ["pdf-tools", "0.3.0", `${registry.url}index.json`],
    ]);
    assert.equal(`sha256:${lock[0].sha256}`, await digestOf(skillText("kraken2", "1.0.0")));
    assert.deepEqual(Object.keys(lock[1].files ?? {}), ["scripts/extract.py"]);
    const community = createStorageSource({
      label: "community",
      storage: createFsStorage({ root: dir }),
    });
    const resolver = createResolver({ sources: [community] });
    assert.equal((await resolver.resolve("pdf-tools")).location, "pdf-tools/SKILL.md");
    assert.equal((await resolver.resolve("kraken2")).source, "community");
  });

  test("--dry-run reports the plan and writes nothing", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    const result = await installSkills(["kraken2"], { ...options(), dryRun: true });
    assert.equal(result.dryRun, true);
    assert.deepEqual(result.changes.map((c) => c.action), ["install"]);
    assert.deepEqual(await listDir(), []);
  });

  test("a wrong digest is refused and nothing is written, not even the other skills", async () => {
    const good = await publish(registry, "bracken", "1.0.0");
    const bad = await publish(registry, "kraken2", "1.0.0");
    registry.files.set("skills/kraken2.md", skillText("kraken2", "tampered"));
    setIndex(registry, [good, bad]);
    await rejectsWith(
      installSkills(["bracken", "kraken2"], options()),
      "digest",
      /Skill "kraken2": the skill document from .*skills\/kraken2\.md has sha256:[0-9a-f]{64}, but the index says sha256:[0-9a-f]{64}; refusing it and writing nothing/,
    );
    assert.deepEqual(await listDir(), []);
  });

  test("a 404 for a skill file and for the index, and a name the index lacks", async () => {
    setIndex(registry, [{ ...await publish(registry, "kraken2", "1"), url: "skills/gone.md" }]);
    await rejectsWith(
      installSkills(["kraken2"], options()),
      "not-found",
      /skills\/gone\.md answered HTTP 404/,
    );
    await rejectsWith(
      installSkills(["nope"], options()),
      "not-found",
      /has no skill named "nope"/,
    );
    registry.files.delete("index.json");
    await rejectsWith(
      installSkills(["kraken2"], options()),
      "not-found",
      /index\.json answered HTTP 404/,
    );
    assert.deepEqual(await listDir(), []);
  });

  for (const declare of [true, false]) {
    test(`a 50 MB file is refused at the size cap (${declare ? "Content-Length" : "streamed"})`, async () => {
      const entry = await publish(registry, "big", "1");
      registry.files.set("skills/big.md", hugeBody(50 * 1024 * 1024, declare));
      setIndex(registry, [entry]);
      const started = Date.now();
      await rejectsWith(
        installSkills(["big"], options()),
        "too-large",
        declare ? /is 52428800 bytes; the limit is 4194304 bytes/ : /more than 4194304 bytes/,
      );
      assert.ok(Date.now() - started < 20_000);
      assert.deepEqual(await listDir(), []);
    });
  }

  test("names with ../, names that are not ASCII and names listed twice are left out", async () => {
    const ok = await publish(registry, "kraken2", "1");
    const first = await publish(registry, "bracken", "1");
    const second = { ...first, version: "2" };
    setIndex(registry, [
      { ...ok, name: "../evil", url: "skills/kraken2.md" },
      { ...ok, name: "\u212Araken2" },
      first,
      ok,
      second,
      { ...ok, name: "x", files: [{ path: "../../outside.txt", url: "a", digest: ok.digest }] },
    ]);
    const index = await fetchRegistryIndex(options());
    assert.deepEqual([...index.skills.keys()], ["kraken2"]);
    assert.deepEqual(index.problems.map((p) => p.index), [0, 1, 4, 5]);
    assert.match(index.problems[0].message, /entry 1: Invalid skill name "\.\.\/evil"/);
    assert.match(index.problems[1].message, /U\+212A\) is not ASCII/);
    assert.match(
      index.problems[2].message,
      /"bracken" is listed more than once \(entries 3 and 5\)/,
    );
    assert.match(index.problems[3].message, /files\.0\.path must be a relative path/);
    await rejectsWith(installSkills(["../evil"], options()), "invalid-name", /Invalid skill name/);
    await rejectsWith(
      installSkills(["bracken"], options()),
      "invalid-index",
      /"bracken" cannot be installed .* listed more than once/,
    );
    assert.deepEqual(await listDir(), []);
    await installSkills(["kraken2"], options());
    assert.deepEqual(await listDir(), ["kraken2.md", "skillmux-lock.json"]);
    assert.deepEqual(await readdir(join(dir, "..")), ["community"], "nothing written outside");
  });

  test("files that cannot all be placed (a path that is also a folder, case twins) are left out", async () => {
    const doc = skillText("pdf-tools", "folder");
    registry.files.set("pkg/SKILL.md", doc);
    registry.files.set("pkg/run.py", "print(1)\n");
    const file = async (path: string) => ({
      path,
      url: `${registry.url}pkg/run.py`,
      digest: await digestOf("print(1)\n"),
    });
    const entry = async (name: string, paths: string[]) => ({
      name,
      description: "PDF tools",
      version: "1",
      digest: await digestOf(doc),
      url: "pkg/SKILL.md",
      files: await Promise.all(paths.map(file)),
    });
    setIndex(registry, [
      await entry("pdf-tools", ["scripts", "scripts/run.py"]),
      await entry("nested", ["lib/a.py", "LIB/a.py"]),
      await entry("under-doc", ["skill.md/x.py"]),
      await entry("fine", ["scripts/run.py", "scripts-extra/run.py", "scripts.py"]),
    ]);
    const index = await fetchRegistryIndex(options());
    assert.deepEqual([...index.skills.keys()], ["fine"]);
    assert.deepEqual(index.problems.map((p) => p.message), [
      'entry 1 ("pdf-tools"): the file scripts is also a folder of scripts/run.py; ' +
      "a path cannot be both",
      'entry 2 ("nested"): the files lib/a.py and LIB/a.py differ only in case',
      'entry 3 ("under-doc"): the file SKILL.md is also a folder of skill.md/x.py; ' +
      "a path cannot be both",
    ]);
    await rejectsWith(
      installSkills(["pdf-tools"], options()),
      "invalid-index",
      /"pdf-tools".*the file scripts is also a folder of scripts\/run\.py/,
    );
    assert.deepEqual(await listDir(), [], "no .tmp- folder left behind");
  });

  test("a gzip bomb is refused unread: downloads ask for identity", async () => {
    const bomb = gzipSync(new Uint8Array(32 * 1024 * 1024));
    const asked: string[] = [];
    setIndex(registry, [await publish(registry, "bomb", "1"), await publish(registry, "ok", "1")]);
    registry.files.set("skills/bomb.md", (req, res) => {
      asked.push(String(req.headers["accept-encoding"]));
      res.writeHead(200, { "content-encoding": "gzip", "content-length": bomb.byteLength });
      res.end(bomb);
    });
    await rejectsWith(
      installSkills(["bomb"], options()),
      "http",
      /skills\/bomb\.md answered with Content-Encoding "gzip" although only identity was accepted; refusing it unread/,
    );
    assert.deepEqual(asked, ["identity"]);
    assert.deepEqual(await listDir(), []);
    await installSkills(["ok"], options());
    assert.deepEqual(await listDir(), ["ok.md", "skillmux-lock.json"]);
  });

  test("a document that names another skill, or does not parse, is refused", async () => {
    const text = skillText("other");
    setIndex(registry, [{ ...await publish(registry, "kraken2", "1", text) }]);
    await rejectsWith(installSkills(["kraken2"], options()), "invalid-skill", /names it "other"/);
    const broken = "---\nname: kraken2\n---\n";
    setIndex(registry, [await publish(registry, "kraken2", "1", broken)]);
    await rejectsWith(installSkills(["kraken2"], options()), "invalid-skill", /description/);
    assert.deepEqual(await listDir(), []);
  });

  test("an index that is not JSON, or has no skills array, is refused", async () => {
    registry.files.set("index.json", "<html>");
    await rejectsWith(installSkills(["x"], options()), "invalid-index", /is not valid JSON/);
    registry.files.set("index.json", '{"items": []}');
    await rejectsWith(installSkills(["x"], options()), "invalid-index", /"skills" array/);
  });

  test("a copy the lock does not know is only replaced with force", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    await writeFile(join(await mkdirp(dir), "kraken2.md"), skillText("kraken2", "mine"));
    await rejectsWith(
      installSkills(["kraken2"], options()),
      "conflict",
      /not installed from a registry/,
    );
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "mine"));
    await installSkills(["kraken2"], { ...options(), force: true });
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "1.0.0"));
  });

  test("a transient 503 is retried", async () => {
    const entry = await publish(registry, "kraken2", "1");
    let calls = 0;
    const text = skillText("kraken2", "1");
    registry.files.set("skills/kraken2.md", (_req, res) => {
      if (calls++ === 0) return void res.writeHead(503).end("busy");
      res.writeHead(200).end(text);
    });
    setIndex(registry, [entry]);
    await installSkills(["kraken2"], { ...options(), retries: 2 });
    assert.equal(calls, 2);
  });

  test("the URL policy: plain http to a host that is not loopback, and such a file URL", async () => {
    await rejectsWith(
      installSkills(["x"], { ...options(), registry: "http://registry.example.com/" }),
      "policy",
      /uses plain http to a host that is not loopback/,
    );
    setIndex(registry, [{
      ...await publish(registry, "kraken2", "1"),
      url: "http://10.1.2.3/x.md",
    }]);
    await rejectsWith(
      installSkills(["kraken2"], options()),
      "policy",
      /Refusing http:\/\/10\.1\.2\.3\/x\.md/,
    );
    registry.files.set("skills/moved.md", (_req, res) => {
      res.writeHead(302, { location: "file:///etc/passwd" }).end();
    });
    setIndex(registry, [{ ...await publish(registry, "kraken2", "1"), url: "skills/moved.md" }]);
    await rejectsWith(installSkills(["kraken2"], options()), "policy", /only http: and https:/);
    assert.deepEqual(await listDir(), []);
  });

  test("no registry configured is a clear error", async () => {
    await rejectsWith(
      installSkills(["x"], { communityDir: dir }),
      "config",
      /No skill registry is configured/,
    );
    assert.equal(
      registryIndexUrl("https://r.example/base").href,
      "https://r.example/base/index.json",
    );
  });
});

describe("updateSkills and uninstallSkills", () => {
  test("update moves to the new version, then reports it unchanged", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    await installSkills(["kraken2"], options());
    setIndex(registry, [await publish(registry, "kraken2", "1.1.0")]);
    const dry = await updateSkills([], { ...options(), dryRun: true });
    assert.deepEqual(dry.changes.map((c) => [c.action, c.from, c.to]), [[
      "update",
      "1.0.0",
      "1.1.0",
    ]]);
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "1.0.0"));
    const done = await updateSkills([], options());
    assert.deepEqual(done.changes.map((c) => [c.action, c.from, c.to]), [[
      "update",
      "1.0.0",
      "1.1.0",
    ]]);
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "1.1.0"));
    assert.equal((await readLockFile(dir))[0].version, "1.1.0");
    const again = await updateSkills(["kraken2"], options());
    assert.deepEqual(again.changes.map((c) => c.action), ["unchanged"]);
  });

  test("update refuses a skill edited since install, and one that is not installed", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    await installSkills(["kraken2"], options());
    await writeFile(join(dir, "kraken2.md"), skillText("kraken2", "edited"));
    setIndex(registry, [await publish(registry, "kraken2", "1.1.0")]);
    await rejectsWith(
      updateSkills([], options()),
      "conflict",
      /was changed since it was installed/,
    );
    await rejectsWith(
      updateSkills(["bracken"], options()),
      "not-installed",
      /not in the lock file/,
    );
  });

  test("an update that fails its digest keeps the installed version", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    await installSkills(["kraken2"], options());
    const next = await publish(registry, "kraken2", "1.1.0");
    registry.files.set("skills/kraken2.md", skillText("kraken2", "evil"));
    setIndex(registry, [next]);
    await rejectsWith(updateSkills([], options()), "digest", /refusing it/);
    assert.equal(await readFile(join(dir, "kraken2.md"), "utf8"), skillText("kraken2", "1.0.0"));
    assert.equal((await readLockFile(dir))[0].version, "1.0.0");
  });

  test("uninstall removes the files and the lock entry", async () => {
    setIndex(registry, [await publish(registry, "kraken2", "1.0.0")]);
    await installSkills(["kraken2"], options());
    const dry = await uninstallSkills(["kraken2"], { communityDir: dir, dryRun: true });
    assert.deepEqual(dry.changes.map((c) => c.action), ["uninstall"]);
    assert.ok((await listDir()).includes("kraken2.md"));
    await uninstallSkills(["kraken2"], { communityDir: dir });
    assert.deepEqual(await listDir(), ["skillmux-lock.json"]);
    assert.deepEqual(await readLockFile(dir), []);
    await rejectsWith(
      uninstallSkills(["kraken2"], { communityDir: dir }),
      "not-installed",
      /not installed/,
    );
  });
});

async function mkdirp(path: string): Promise<string> {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(path, { recursive: true });
  return path;
}
