// The storage error family: every error an adapter raises is a StorageError with a stable `name`,
// a `code` for the reason and the `cause` it was given, met here through real adapters (memory,
// fs, unstorage); a bad key is the one TypeError, with the family's `invalid-key` code.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import {
  createMemoryStorage,
  InvalidStorageKeyError,
  isStorageError,
  StorageDisposedError,
  StorageError,
  type StorageErrorCode,
  StoragePathError,
} from "../../lib/storage/mod.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { createUnstorageStorage } from "../../lib/storage/unstorage.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

/** `error` is a StorageError of this name and code, about `key`. */
function assertStorageError(error: unknown, name: string, code: StorageErrorCode, key?: string) {
  assert.ok(error instanceof StorageError, String(error));
  assert.ok(isStorageError(error));
  assert.deepEqual([error.name, error.code, error.key], [name, code, key]);
}

describe("the storage error family", () => {
  test("each class has its name and code and keeps the cause", () => {
    const cause = new Error("EIO");
    const plain = new StorageError("boom", { key: "a", cause });
    assertStorageError(plain, "StorageError", "io", "a");
    assert.equal(plain.cause, cause);
    assert.equal(Object.hasOwn(new StorageError("boom"), "cause"), false);
    assertStorageError(
      new StorageError("locked", { code: "locked" }),
      "StorageError",
      "locked",
    );
    const path = new StoragePathError("outside", "/etc", { key: "k", cause });
    assertStorageError(path, "StoragePathError", "path", "k");
    assert.equal(path.cause, cause);
    assertStorageError(
      new StorageDisposedError("memory", "k"),
      "StorageDisposedError",
      "disposed",
      "k",
    );
  });

  test("a call after dispose() is `disposed`", async () => {
    const store = createMemoryStorage();
    await store.dispose?.();
    assertStorageError(
      await store.get("a").catch((e) => e),
      "StorageDisposedError",
      "disposed",
      "a",
    );
  });

  test("a key whose file would be a folder on disk is a `conflict`", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a/b.md", "x");
    assertStorageError(await store.set("a", "y").catch((e) => e), "StorageError", "conflict", "a");
  });

  test("an I/O failure is `io`, with the OS error as its cause", async () => {
    const root = await makeTempDir();
    await writeFile(join(root, "file"), "not a folder");
    const store = createFsStorage({ root: join(root, "file", "below") });
    const error = await store.set("a.md", "x").catch((e) => e);
    assertStorageError(error, "StorageError", "io", "a.md");
    assert.ok(error.cause instanceof Error, "the OS error is the cause");
  });

  test("a stored value that is not a string is `invalid-value`", async () => {
    const u = createStorage({ driver: memoryDriver() });
    await u.setItem("n", 42);
    const error = await createUnstorageStorage(u).get("n").catch((e) => e);
    assertStorageError(error, "StorageError", "invalid-value", "n");
  });

  test("a bad key is a TypeError with the family's code `invalid-key`, not a StorageError", async () => {
    const error = await createMemoryStorage().get("../x").catch((e) => e);
    assert.ok(error instanceof InvalidStorageKeyError);
    assert.ok(error instanceof TypeError);
    assert.equal(error instanceof StorageError, false);
    assert.deepEqual([error.name, error.code], ["InvalidStorageKeyError", "invalid-key"]);
  });
});
