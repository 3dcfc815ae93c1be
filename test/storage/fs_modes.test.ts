import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmod, readdir, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

const posix = globalThis.process?.platform !== "win32";

async function mode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

describe("fs storage file modes", { skip: !posix && "POSIX modes only" }, () => {
  test("private mode creates the root and folders 0700 and files 0600", async () => {
    const root = path.join(await makeTempDir(), "secrets");
    const store = createFsStorage({ root, private: true });
    await store.set("servers/docs/key.json", "{}");
    assert.equal(await mode(root), 0o700);
    assert.equal(await mode(path.join(root, "servers")), 0o700);
    assert.equal(await mode(path.join(root, "servers/docs")), 0o700);
    assert.equal(await mode(path.join(root, "servers/docs/key.json")), 0o600);
  });

  test("default mode creates folders 0755 and files 0644", async () => {
    const root = path.join(await makeTempDir(), "public");
    const store = createFsStorage({ root });
    await store.set("skills/a.md", "# a");
    assert.equal(await mode(path.join(root, "skills")), 0o755);
    assert.equal(await mode(path.join(root, "skills/a.md")), 0o644);
  });

  test("an existing 0644 file is rewritten to 0600 in private mode", async () => {
    const root = await makeTempDir();
    const file = path.join(root, "key.json");
    await writeFile(file, "old", { mode: 0o644 });
    await chmod(file, 0o644);
    const before = (await stat(file)).ino;
    await createFsStorage({ root, private: true }).set("key.json", "new");
    assert.equal(await mode(file), 0o600);
    assert.equal(await createFsStorage({ root }).get("key.json"), "new");
    assert.notEqual((await stat(file)).ino, before, "replaced by rename, not rewritten in place");
    assert.deepEqual(await readdir(root), ["key.json"], "no temp files left");
  });

  test("a 0666 file is rewritten to 0644 in default mode", async () => {
    const root = await makeTempDir();
    await writeFile(path.join(root, "a.md"), "old");
    await chmod(path.join(root, "a.md"), 0o666);
    await createFsStorage({ root }).set("a.md", "new");
    assert.equal(await mode(path.join(root, "a.md")), 0o644);
  });

  test("modes hold under a restrictive umask", async () => {
    const proc = globalThis.process;
    const previous = proc.umask(0o077);
    try {
      const root = path.join(await makeTempDir(), "r");
      await createFsStorage({ root }).set("d/a.md", "x");
      assert.equal(await mode(path.join(root, "d")), 0o755);
      assert.equal(await mode(path.join(root, "d/a.md")), 0o644);
    } finally {
      proc.umask(previous);
    }
  });
});
