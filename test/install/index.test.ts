// The registry index's checks: digest and file-path patterns anchored at both ends (no `..`
// segment anywhere), names written canonically and listed once (a name listed twice or three
// times is left out and cannot be installed), entries that are not objects, an index that is not
// UTF-8 JSON; each problem names its entry, field and reason. Through the public "./install"
// entry against a real registry on 127.0.0.1 (./_registry.ts).
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import { test } from "node:test";
import {
  fetchRegistryIndex,
  type InstallError,
  installSkills,
  isInstallError,
} from "../../lib/install/mod.ts";
import {
  digestOf,
  folderSkill,
  publish,
  setIndex,
  type TestRegistry,
  useRegistry,
} from "./_registry.ts";

let registry: TestRegistry;
let dir: string;
const options = () => ({ registry: registry.url, communityDir: dir, retries: 0 });
useRegistry("skillmux-index-", (r, d) => {
  registry = r;
  dir = d;
});

const HEX = "0123456789abcdef".repeat(4);

/** The problems of an index listing `entries`, by message, and the names it keeps. */
async function indexOf(entries: unknown[]) {
  setIndex(registry, entries);
  const index = await fetchRegistryIndex({ registry: registry.url, retries: 0 });
  return { names: [...index.skills.keys()], messages: index.problems.map((p) => p.message) };
}

test("a digest must be exactly sha256: and 64 lowercase hex digits", async () => {
  const ok = await publish(registry, "kraken2", "1");
  const bad = [
    `sha256:${HEX.toUpperCase()}`,
    `xsha256:${HEX}`,
    `sha256:${HEX}0`,
    `sha256:${HEX}\n`,
  ];
  const { names, messages } = await indexOf([
    ...bad.map((digest, i) => ({ ...ok, name: `bad${i}`, digest })),
    { ...ok, name: "good", digest: `sha256:${HEX}` },
  ]);
  assert.deepEqual(names, ["good"]);
  assert.deepEqual(
    messages,
    bad.map((_, i) => `entry ${i + 1} ("bad${i}"): digest must be sha256:<64 lowercase hex>`),
  );
});

test("a file path is plain relative segments: no dot segment anywhere, no slash at either end", async () => {
  const ok = await publish(registry, "kraken2", "1");
  const file = (path: string) => ({ path, url: "f", digest: `sha256:${HEX}` });
  const bad = [
    "a/../b",
    "a/..",
    "./a",
    "a/./b",
    "/a",
    "a/",
    "a//b",
    "a\\b",
    "a b",
    "..",
    "",
    "a/b\n",
  ];
  const good = ["a", ".hidden", "a..b/c...d", "scripts/run.py", "A-Z_0.9/x"];
  const { names, messages } = await indexOf([
    ...bad.map((path, i) => ({ ...ok, name: `bad${i}`, files: [file(path)] })),
    { ...ok, name: "good", files: good.map(file) },
    { ...ok, name: "doc", files: [file("SKILL.md")] },
  ]);
  assert.deepEqual(names, ["good"]);
  assert.deepEqual(messages, [
    ...bad.map((_, i) =>
      `entry ${i + 1} ("bad${i}"): files.0.path must be a relative path of plain segments`
    ),
    `entry ${
      bad.length + 2
    } ("doc"): files.0.path must not be SKILL.md (that is the skill document)`,
  ]);
});

test("entries that are not objects, or lack a name, are problems without a name", async () => {
  const ok = await publish(registry, "kraken2", "1");
  setIndex(registry, [null, 7, { ...ok, name: 3 }, ok]);
  const index = await fetchRegistryIndex({ registry: registry.url, retries: 0 });
  assert.deepEqual([...index.skills.keys()], ["kraken2"]);
  assert.deepEqual(index.problems.map((p) => [p.index, p.name]), [
    [0, undefined],
    [1, undefined],
    [2, undefined],
  ]);
  for (const [i, p] of index.problems.entries()) {
    assert.match(p.message, new RegExp(`^entry ${i + 1}: `), p.message);
  }
  assert.match(index.problems[2].message, /^entry 3: name /);
});

test("a name listed twice names both entries; a third listing names its own only", async () => {
  const ok = await publish(registry, "kraken2", "1");
  const { names, messages } = await indexOf([ok, ok, ok]);
  assert.deepEqual(names, []);
  const tail = "; it cannot be installed from this index until one is removed";
  assert.deepEqual(messages, [
    `"kraken2" is listed more than once (entries 1 and 2)${tail}`,
    `"kraken2" is listed more than once (entries 3)${tail}`,
  ]);
});

test("an index that is not UTF-8 is not JSON; each refusal names the index URL", async () => {
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(200).end(Buffer.from('{"skills":[],"note":"caf\xe9"}', "latin1"));
  });
  const url = `${registry.url}index.json`;
  const bytes = await fetchRegistryIndex({ registry: registry.url, retries: 0 }).catch((e) => e);
  assert.deepEqual([bytes.code, bytes.url, bytes.message], [
    "invalid-index",
    url,
    `The registry index ${url} is not valid JSON`,
  ]);
  assert.ok(bytes.cause instanceof Error);
  registry.files.set("index.json", "[]");
  const shape = await fetchRegistryIndex({ registry: registry.url, retries: 0 }).catch((e) => e);
  assert.deepEqual([shape.code, shape.url], ["invalid-index", url]);
});

test("a name not written canonically, a bad file digest and a file listed twice are problems", async () => {
  const ok = await publish(registry, "kraken2", "1");
  const file = (path: string, digest = `sha256:${HEX}`) => ({ path, url: "f", digest });
  const { names, messages } = await indexOf([
    { ...ok, name: "Kraken2" },
    { ...ok, name: "a", files: [file("x.py", "sha256:0")] },
    { ...ok, name: "b", files: [file("x.py"), file("x.py")] },
    { ...ok, name: "c", files: [file("x.py"), file("X.py")] },
    null,
  ]);
  assert.deepEqual(names, []);
  assert.deepEqual(messages, [
    'entry 1: the name "Kraken2" must be written "kraken2"',
    'entry 2 ("a"): files.0.digest must be sha256:<64 lowercase hex>',
    'entry 3 ("b"): the file x.py is listed twice',
    'entry 4 ("c"): the files x.py and X.py differ only in case',
    "entry 5: Invalid type: Expected Object but received null",
  ]);
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
  const entry = await folderSkill(registry, "pdf-tools", "0.3.0");
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
