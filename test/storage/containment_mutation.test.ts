// The fs adapter's containment and atomic writes at the edges the mutants of
// `npm run mutate -- storage` showed untested: the root itself and its parent, a path through a
// linked folder, the errors of a root that cannot be opened or created and of a name too long to
// stat, the temp file a write goes through, and the key rules' messages.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { after, describe, test } from "node:test";
import { fileNameProblem } from "../../lib/storage/_fs_names.ts";
import { code, followLink, isInside, message, resolveKey } from "../../lib/storage/_fs_resolve.ts";
import { TEMP_PREFIX, writeFileAtomic } from "../../lib/storage/fs_write.ts";
import {
  describeKey,
  storageKeyProblem,
  storagePrefixProblem,
} from "../../lib/storage/_key_rules.ts";
import type { StorageError, StoragePathError } from "../../lib/storage/errors.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

/** The error `promise` rejects with (fails when it resolves). */
async function rejection<T>(promise: Promise<unknown>): Promise<T> {
  return await promise.then(() => assert.fail("resolved"), (error: T) => error);
}

describe("containment", () => {
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

describe("the root", () => {
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

describe("atomic writes", () => {
  test("the value is complete, hidden and has its mode before it is renamed into place", async () => {
    const dir = await makeTempDir();
    const target = path.join(dir, "value");
    await writeFile(target, "old");
    let seen: string[] = [];
    let mode = 0;
    let content = "";
    const signal = {
      throwIfAborted() {
        seen = readdirSync(dir);
        const temp = seen.find((name) => name !== "value");
        if (temp !== undefined) {
          mode = statSync(path.join(dir, temp)).mode & 0o777;
          content = readFileSync(path.join(dir, temp), "utf8");
        }
      },
    } as unknown as AbortSignal;
    await writeFileAtomic(target, "néw ✓", 0o600, signal);
    assert.equal(seen.length, 2, seen.join());
    const temp = seen.find((name) => name !== "value") ?? "";
    assert.match(temp, /^\.tmp-[0-9a-f]{24}$/);
    assert.ok(temp.startsWith(TEMP_PREFIX));
    assert.equal(mode, 0o600);
    assert.equal(content, "néw ✓");
    assert.equal(await readFile(target, "utf8"), "néw ✓");
    assert.deepEqual(await readdir(dir), ["value"]);
  });
});

describe("temp names", () => {
  test("each write goes through a new .tmp- name of 24 hex digits (12 random bytes)", async () => {
    const dir = await makeTempDir();
    const names = new Set<string>();
    const signal = {
      throwIfAborted() {
        for (const name of readdirSync(dir)) if (name !== "value") names.add(name);
      },
    } as unknown as AbortSignal;
    for (let i = 0; i < 16; i++) {
      await writeFileAtomic(path.join(dir, "value"), `${i}`, 0o600, signal);
    }
    assert.equal(names.size, 16);
    for (const name of names) assert.match(name, /^\.tmp-[0-9a-f]{24}$/);
  });
});

describe("key rules: messages", () => {
  test("a prefix that is not a string, null included", () => {
    assert.equal(storagePrefixProblem(5), "must be a string, not number");
    assert.equal(storagePrefixProblem(null), "must be a string, not null");
    assert.equal(storageKeyProblem(null), "must be a string, not null");
    assert.equal(storagePrefixProblem("a/"), undefined);
  });

  test("describeKey cuts past 80 characters, not at 80", () => {
    const eighty = "k".repeat(80);
    assert.equal(describeKey(eighty), JSON.stringify(eighty));
    assert.equal(describeKey(`${eighty}x`), JSON.stringify(`${eighty}…`));
    assert.equal(describeKey(null), "null");
  });

  test("a lone surrogate cannot be a file name, and says so", () => {
    assert.equal(fileNameProblem("a\ud800"), "lone surrogates cannot be stored in file names");
    assert.equal(fileNameProblem("a😀"), undefined);
  });
});
