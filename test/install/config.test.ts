// Install's settings and state: the lock file (a file that is not `{ "version": 1, "skills":
// {…} }` is refused naming the file, a missing one is empty, it is written sorted) and the
// registry setting (SKILLMUX_REGISTRY first, then config.toml's `[skills] registry`, which must be
// a string). Through the public "./install" entry on real files.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { defaultRegistry, installSkills, readLockFile } from "../../lib/install/mod.ts";
import { failure, publish, setIndex, startRegistry, type TestRegistry } from "./_registry.ts";

let root: string;
let registry: TestRegistry;
before(async () => {
  root = await mkdtemp(join(tmpdir(), "skillmux-lockcfg-"));
  registry = await startRegistry();
});
after(async () => {
  await registry.close();
  await rm(root, { recursive: true, force: true });
});

test("a lock file of another shape is refused naming the file; a missing one is empty", async () => {
  const dir = join(root, "lock");
  await mkdir(dir, { recursive: true });
  assert.deepEqual(await readLockFile(join(root, "none")), []);
  const file = join(dir, "skillmux-lock.json");
  for (
    const text of [
      "{",
      "null",
      '{"version":2,"skills":{}}',
      '{"version":1,"skills":null}',
      '{"version":1}',
    ]
  ) {
    await writeFile(file, text);
    const error = await failure(readLockFile(dir));
    assert.equal(error.code, "config", text);
    assert.ok(error.message.startsWith(`The lock file ${file} is not valid: `), error.message);
    assert.match(error.message, /; fix it or delete it$/);
    if (text !== "{") assert.match(error.message, /expected \{ "version": 1, "skills": \{ … \} \}/);
    assert.ok(error.cause instanceof Error, "the parse or shape error is the cause");
  }
  await writeFile(file, '{"version":1,"skills":{"b":{"name":"b"},"a":{"name":"a"}}}');
  assert.deepEqual((await readLockFile(dir)).map((e) => e.name), ["a", "b"]);
  // A lock that cannot be read (here a folder) is an error, not an empty lock.
  const unreadable = join(root, "unreadable");
  await mkdir(join(unreadable, "skillmux-lock.json"), { recursive: true });
  await assert.rejects(
    readLockFile(unreadable),
    (e: unknown) => (e as { code?: string }).code === "EISDIR",
  );
});

test("the lock is written sorted by name, as version 1, one entry per skill", async () => {
  const dir = join(root, "sorted");
  setIndex(registry, [await publish(registry, "zeta", "1"), await publish(registry, "alpha", "2")]);
  await installSkills(["zeta", "alpha"], { registry: registry.url, communityDir: dir, retries: 0 });
  const lock = JSON.parse(await readFile(join(dir, "skillmux-lock.json"), "utf8"));
  assert.equal(lock.version, 1);
  assert.deepEqual(Object.keys(lock.skills), ["alpha", "zeta"]);
  assert.deepEqual([lock.skills.alpha.name, lock.skills.alpha.version], ["alpha", "2"]);
});

test("the registry: SKILLMUX_REGISTRY first, then config.toml, which must hold a string", async () => {
  const dir = join(root, "config");
  await mkdir(dir, { recursive: true });
  assert.equal(await defaultRegistry(dir, {}), undefined, "no file, no variable");
  const file = join(dir, "config.toml");
  await writeFile(file, '[skills]\nregistry = "https://skills.example.org"\n');
  assert.equal(await defaultRegistry(dir, {}), "https://skills.example.org");
  assert.equal(
    await defaultRegistry(dir, { SKILLMUX_REGISTRY: "https://env.example.org" }),
    "https://env.example.org",
  );
  assert.equal(await defaultRegistry(dir, { SKILLMUX_REGISTRY: "" }), "https://skills.example.org");
  await writeFile(file, "[other]\nx = 1\n");
  assert.equal(await defaultRegistry(dir, {}), undefined);
  await writeFile(file, "[skills]\nregistry = 3\n");
  const wrong = await failure(defaultRegistry(dir, {}));
  assert.deepEqual([wrong.code, wrong.message], [
    "config",
    `${file}: [skills] registry must be a URL string`,
  ]);
  await writeFile(file, "[skills\n");
  const broken = await failure(defaultRegistry(dir, {}));
  assert.equal(broken.code, "config");
  assert.ok(broken.message.startsWith(`${file} is not valid TOML: `), broken.message);
  assert.ok(broken.cause instanceof Error, "the TOML error is the cause");
});
