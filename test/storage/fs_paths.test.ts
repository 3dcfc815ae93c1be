// The fs adapter's containment: keys that would leave the root, symlinks in and out of it, the
// root itself (missing, unopenable, reached through a link) and the errors that name the key,
// against real folders and links under a temp dir.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { code, followLink, isInside, message, resolveKey } from "../../lib/storage/_fs_resolve.ts";
import type { StorageError, StoragePathError } from "../../lib/storage/errors.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

/** A root folder next to `<root>_evil` and `outside`, each with a secret file. */
async function layout() {
  const base = await makeTempDir("skillmux-paths-");
  const root = path.join(base, "root");
  const evil = `${root}_evil`;
  const outside = path.join(base, "outside");
  for (const dir of [root, evil, outside]) await mkdir(dir);
  await writeFile(path.join(evil, "secret.md"), "evil secret");
  await writeFile(path.join(outside, "secret.md"), "outside secret");
  return { base, root, evil, outside, store: createFsStorage({ root }) };
}

const refused = { name: "StoragePathError" };

/** The error `promise` rejects with (fails when it resolves). */
async function rejection<T>(promise: Promise<unknown>): Promise<T> {
  return await promise.then(() => assert.fail("resolved"), (error: T) => error);
}

describe("fs storage containment", () => {
  test("traversal keys are refused before any I/O (the root is not even created)", async () => {
    const base = await makeTempDir();
    const root = path.join(base, "never-created");
    const store = createFsStorage({ root });
    for (const key of ["..", "../x", "a/../../x", "/etc/passwd", "C:\\x", "a\\..\\..\\x"]) {
      await assert.rejects(store.set(key, "x"), { name: "InvalidStorageKeyError" }, key);
      await assert.rejects(store.get(key), { name: "InvalidStorageKeyError" }, key);
      await assert.rejects(store.delete(key), { name: "InvalidStorageKeyError" }, key);
    }
    await assert.rejects(stat(root), { code: "ENOENT" });
  });

  test("encoded separators and dots stay literal file names inside the root", async () => {
    const { base, root, store } = await layout();
    for (const key of ["..%2Fx", "%2e%2e", "%2E%2E/%2F", "..%5Cx"]) {
      await store.set(key, key);
      assert.equal(await store.get(key), key);
    }
    assert.deepEqual((await readdir(root)).sort(), [
      "%252E%252E",
      "%252e%252e",
      "%2E.%252Fx",
      "%2E.%255Cx",
    ]);
    assert.deepEqual((await readdir(base)).sort(), ["outside", "root", "root_evil"]);
    assert.deepEqual(await store.keys(), ["%2E%2E/%2F", "%2e%2e", "..%2Fx", "..%5Cx"]);
  });

  test("a symlink to a file outside is refused for get, set, delete and skipped by keys", async () => {
    const { root, outside, store } = await layout();
    await symlink(path.join(outside, "secret.md"), path.join(root, "link.md"));
    await symlink("/etc/passwd", path.join(root, "passwd"));
    for (const key of ["link.md", "passwd"]) {
      const error = await store.get(key).catch((e) => e);
      assert.equal(error.name, "StoragePathError", key);
      assert.match(error.message, new RegExp(`"${key}".*outside the storage root`));
      assert.ok(error.cause instanceof Error);
      await assert.rejects(store.set(key, "pwned"), refused, key);
      await assert.rejects(store.delete(key), refused, key);
    }
    assert.deepEqual(await store.keys(), []);
    assert.equal(await readFile(path.join(outside, "secret.md"), "utf8"), "outside secret");
  });

  test("a symlinked folder pointing outside (or to <root>_evil) is refused", async () => {
    const { root, evil, outside, store } = await layout();
    await symlink(outside, path.join(root, "out"));
    await symlink(evil, path.join(root, "sibling"));
    await symlink(path.join("..", "root_evil"), path.join(root, "relative"));
    for (const dir of ["out", "sibling", "relative"]) {
      await assert.rejects(store.get(`${dir}/secret.md`), refused, dir);
      await assert.rejects(store.set(`${dir}/new.md`, "x"), refused, dir);
      await assert.rejects(store.delete(`${dir}/secret.md`), refused, dir);
      assert.deepEqual(await store.keys(`${dir}/`), []);
    }
    assert.deepEqual(await store.keys(), []);
    assert.deepEqual(await readdir(outside), ["secret.md"]);
    assert.deepEqual(await readdir(evil), ["secret.md"]);
  });

  test("a dangling symlink is refused and skipped", async () => {
    const { root, store } = await layout();
    await symlink(path.join(root, "nowhere.md"), path.join(root, "dangling.md"));
    await assert.rejects(store.get("dangling.md"), refused);
    await assert.rejects(store.set("dangling.md", "x"), refused);
    await assert.rejects(stat(path.join(root, "nowhere.md")), { code: "ENOENT" });
    assert.deepEqual(await store.keys(), []);
  });

  test("symlinks that stay inside the root work, and link loops do not hang keys()", async () => {
    const { root, store } = await layout();
    await store.set("real/a.md", "a");
    await symlink(path.join(root, "real", "a.md"), path.join(root, "alias.md"));
    await symlink("real", path.join(root, "mirror"));
    await symlink(".", path.join(root, "real", "loop"));
    assert.equal(await store.get("alias.md"), "a");
    assert.equal(await store.get("mirror/a.md"), "a");
    await store.set("alias.md", "written through the link");
    assert.equal(await store.get("real/a.md"), "written through the link");
    assert.deepEqual(await store.keys(), ["alias.md", "mirror/a.md", "real/a.md"]);
    await store.delete("alias.md");
    assert.equal(await store.get("real/a.md"), "written through the link", "only the link goes");
  });

  test("a root reached through a symlink works", async () => {
    const { base, root } = await layout();
    await symlink(root, path.join(base, "root-link"));
    const store = createFsStorage({ root: path.join(base, "root-link") });
    await store.set("x/y.md", "y");
    assert.equal(await readFile(path.join(root, "x", "y.md"), "utf8"), "y");
    assert.deepEqual(await store.keys(), ["x/y.md"]);
  });
});

describe("fs storage containment: resolving a key", () => {
  test("isInside: the root and below are inside; its parent and siblings are not", () => {
    assert.equal(isInside("/r", "/r"), true);
    assert.equal(isInside("/r", "/r/a/b"), true);
    assert.equal(isInside("/r", "/r/..x"), true);
    assert.equal(isInside("/r", "/"), false);
    assert.equal(isInside("/r/s", "/r"), false);
    assert.equal(isInside("/r", "/r/../x"), false);
    assert.equal(isInside("/r", "/r_evil"), false);
  });

  test("resolveKey refuses the root itself and anything that leaves it, naming key and path", async () => {
    const root = await makeTempDir();
    for (const names of [[], [".."], ["a", "..", ".."]]) {
      const error = await rejection<StoragePathError>(resolveKey(root, names, "k"));
      assert.equal(error.name, "StoragePathError", String(error));
      const lexical = path.join(root, ...names);
      assert.equal(
        error.message,
        `Cannot map storage key "k" to ${lexical}: it is outside the storage root ${root}`,
      );
      assert.equal(error.key, "k");
      assert.equal(error.path, lexical);
    }
  });

  test("a path through a linked folder is marked, however deep below the link", async () => {
    const root = await makeTempDir();
    await mkdir(path.join(root, "real", "sub"), { recursive: true });
    await writeFile(path.join(root, "real", "sub", "x"), "v");
    await symlink(path.join(root, "real"), path.join(root, "link"));
    const direct = await resolveKey(root, ["real", "sub", "x"], "real/sub/x");
    assert.equal(direct?.viaLink, false);
    const linked = await resolveKey(root, ["link", "sub", "x"], "link/sub/x");
    assert.equal(linked?.viaLink, true);
    assert.equal(linked?.real, path.join(root, "real", "sub", "x"));
    assert.equal(linked?.link, false);
  });

  test("a dangling link and a link out of the root: messages, key and cause", async () => {
    const root = await makeTempDir();
    const outside = await makeTempDir();
    const dangling = path.join(root, "gone");
    await symlink(path.join(root, "nothing"), dangling);
    const error = await rejection<StoragePathError>(followLink(dangling, root, "gone"));
    assert.equal(error.name, "StoragePathError");
    assert.equal(
      error.message,
      `Cannot use storage key "gone": ${dangling} is a dangling or looping symlink`,
    );
    assert.equal(error.key, "gone");
    assert.equal(code(error.cause), "ENOENT");
    const out = path.join(root, "out");
    await symlink(outside, out);
    const escaped = await rejection<StoragePathError>(followLink(out, root, "out"));
    assert.equal(escaped.key, "out");
    assert.equal(
      (escaped.cause as Error).message,
      `symlink target ${outside} is outside ${root}`,
    );
  });

  test("a file where a folder should be: the error names the key", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a", "file");
    const error = await rejection<StorageError>(store.set("a/b", "v"));
    assert.equal(error.name, "StorageError");
    assert.equal(error.key, "a/b");
    assert.match(error.message, /is a file, not a folder$/);
  });
});

describe("fs storage root", () => {
  test("a missing root is created with its missing parents on the first write", async () => {
    const root = path.join(await makeTempDir(), "x", "y", "z");
    const store = createFsStorage({ root });
    assert.equal(await store.get("k"), undefined);
    await assert.rejects(stat(root), { code: "ENOENT" });
    await store.set("k", "v");
    assert.equal(await readFile(path.join(root, "k"), "utf8"), "v");
  });

  test("a root that cannot be opened (under a file) is an error, not an empty store", async () => {
    const base = await makeTempDir();
    await writeFile(path.join(base, "file"), "x");
    const root = path.join(base, "file", "root");
    const store = createFsStorage({ root });
    const error = await rejection<StorageError>(store.get("k"));
    assert.equal(error.name, "StorageError");
    assert.equal(error.key, "k");
    assert.match(error.message, new RegExp(`^Cannot open storage root ${root} for key "k": `));
    assert.equal(code(error.cause), "ENOTDIR");
  });

  test("a name too long to stat is an error, not a missing key", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("k", "v");
    const long = "n".repeat(300);
    const error = await rejection<StorageError>(store.get(long));
    assert.equal(error.name, "StorageError");
    assert.equal(error.key, long);
    assert.match(error.message, new RegExp(`^Cannot use storage key "${long}": cannot stat `));
    assert.equal(code(error.cause), "ENAMETOOLONG");
  });

  test("code() and message() accept anything thrown", () => {
    assert.equal(code(null), undefined);
    assert.equal(code(undefined), undefined);
    assert.equal(code({ code: 5 }), undefined);
    assert.equal(code({ code: "EX" }), "EX");
    assert.equal(message(new Error("m")), "m");
    assert.equal(message(5), "5");
  });
});
