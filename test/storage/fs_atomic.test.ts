import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { promisify } from "node:util";
import { LOCK_PREFIX, STALE_LOCK_MS } from "../../lib/storage/_fs_lock.ts";
import { TEMP_PREFIX, writeFileAtomic } from "../../lib/storage/fs_write.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { isStorageError } from "../../lib/storage/mod.ts";
import { bundleScript } from "./_bundle.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

const run = promisify(execFile);

/** Set or clear the immutable flag (even root cannot rename over or into an immutable entry). */
async function immutable(file: string, on: boolean): Promise<boolean> {
  try {
    await run("chattr", [on ? "+i" : "-i", file]);
    return true;
  } catch {
    return false;
  }
}

async function canChattr(): Promise<boolean> {
  const probe = path.join(await makeTempDir(), "probe");
  await writeFile(probe, "");
  return (await immutable(probe, true)) && (await immutable(probe, false));
}

const chattr = await canChattr();

describe("fs storage atomic writes", () => {
  test("a failed rename leaves the old value and no temp file", {
    skip: !chattr && "needs chattr +i",
  }, async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a.md", "old value");
    const file = path.join(root, "a.md");
    await immutable(file, true);
    try {
      const error = await store.set("a.md", "new value").then(() => undefined, (e) => e);
      assert.ok(isStorageError(error), `expected a StorageError, got ${error}`);
      assert.match(error.message, /^Cannot write storage key "a\.md" to .*a\.md: EPERM/);
      assert.ok(error.message.includes(file));
      assert.equal((error.cause as { code?: string }).code, "EPERM");
      assert.equal(error.key, "a.md");
    } finally {
      await immutable(file, false);
    }
    assert.equal(await readFile(file, "utf8"), "old value");
    assert.deepEqual(await readdir(root), ["a.md"], "temp file removed");
  });

  test("a folder that refuses new files leaves the old value", {
    skip: !chattr && "needs chattr +i",
  }, async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root, private: true });
    await store.set("d/a.md", "old");
    await immutable(path.join(root, "d"), true);
    try {
      await assert.rejects(store.set("d/a.md", "new"), /Cannot write storage key "d\/a\.md"/);
    } finally {
      await immutable(path.join(root, "d"), false);
    }
    assert.equal(await store.get("d/a.md"), "old");
    assert.deepEqual(await readdir(path.join(root, "d")), ["a.md"]);
  });

  test("a key that is a folder is refused and nothing is written", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a/b.md", "b");
    await assert.rejects(store.set("a", "x"), /Cannot write storage key "a" to .*: it is a folder/);
    assert.deepEqual(await readdir(root), ["a"]);
    assert.deepEqual(await readdir(path.join(root, "a")), ["b.md"]);
    assert.equal(await store.get("a/b.md"), "b");
  });

  test("a key below a file is refused", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a", "file");
    await assert.rejects(store.set("a/b", "x"), /Cannot write storage key "a\/b": .* is a file/);
    assert.equal(await store.get("a/b"), undefined);
    assert.equal(await store.get("a"), "file");
  });

  test("leftovers of a crashed write are ignored", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("s/a.md", "old");
    await writeFile(path.join(root, "s", ".tmp-0123456789abcdef"), "half a new val");
    assert.equal(await store.get("s/a.md"), "old");
    assert.deepEqual(await store.keys(), ["s/a.md"]);
    await store.set("s/a.md", "new");
    assert.equal(await store.get("s/a.md"), "new");
  });

  test("aborting during a write keeps the old value and leaves no temp file", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a.md", "old");
    const controller = new AbortController();
    const reason = new Error("changed my mind");
    const pending = store.set("a.md", "new".repeat(100_000), { signal: controller.signal });
    controller.abort(reason); // the call has passed its first check and is doing I/O now
    await assert.rejects(pending, (error) => error === reason);
    assert.equal(await store.get("a.md"), "old");
    assert.deepEqual(await readdir(root), ["a.md"]);
  });

  test("aborting during keys() rejects with the reason", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`d${i}/k.md`, "v")));
    const controller = new AbortController();
    const pending = store.keys("", { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, { name: "AbortError" });
  });

  test("a value with lone surrogates is refused (UTF-8 cannot hold it)", async () => {
    const store = createFsStorage({ root: await makeTempDir() });
    await assert.rejects(store.set("a", "bad \uD800 half"), TypeError);
    await assert.rejects(store.set("\uDC00", "x"), { name: "InvalidStorageKeyError" });
    assert.deepEqual(await store.keys(), []);
  });

  test("delete removes emptied folders but never the root", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("a/b/c.md", "c");
    await store.set("a/d.md", "d");
    await store.delete("a/b/c.md");
    assert.deepEqual(await readdir(path.join(root, "a")), ["d.md"]);
    await store.delete("a/d.md");
    assert.deepEqual(await readdir(root), []);
    await mkdir(path.join(root, "keep"));
    await store.clear!();
    assert.deepEqual(await readdir(root), ["keep"], "foreign empty folders stay");
  });
});

describe("fs storage compareAndSet across processes", () => {
  test("6 processes adding 25 each with read-and-swap loops count to 150", async () => {
    const root = await makeTempDir();
    const script = await bundleScript(new URL("./_cas_writer.ts", import.meta.url));
    const children = Array.from({ length: 6 }, () => {
      const args = "Deno" in globalThis ? ["run", "-A", script, "25", root] : [script, "25", root];
      const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      return { child, ready, exited, out: () => out };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.child.stdin.write("go\n");
    const codes = await Promise.all(children.map((c) => c.exited));
    assert.deepEqual(codes, [0, 0, 0, 0, 0, 0]);
    assert.equal(await createFsStorage({ root }).get("n.txt"), "150", "no increment lost");
    const lost = children.map((c) => Number(/lost (\d+)/.exec(c.out())?.[1]));
    console.log(`# races lost and retried: ${lost.join(", ")}`);
    assert.deepEqual(
      (await readdir(root)).filter((n) => n.startsWith(".")),
      [],
      "no lock file left",
    );
  });

  test("a lock file a dead writer left is broken once stale; a live one is waited for", async () => {
    const root = await makeTempDir();
    const store = createFsStorage({ root });
    await store.set("k.txt", "1");
    const lock = path.join(root, `${LOCK_PREFIX}k.txt`);
    await writeFile(lock, "");
    const old = new Date(Date.now() - STALE_LOCK_MS - 1_000);
    await utimes(lock, old, old);
    assert.equal(await store.compareAndSet!("k.txt", "1", "2"), true, "the stale lock is broken");
    assert.equal(await store.get("k.txt"), "2");
    await writeFile(lock, ""); // a live holder's
    let done = false;
    const waiting = store.compareAndSet!("k.txt", "2", "3").then((ok) => (done = true, ok));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(done, false, "it waits while the holder lives");
    assert.equal(await store.get("k.txt"), "2");
    await rm(lock);
    assert.equal(await waiting, true);
    assert.equal(await store.get("k.txt"), "3");
  });
});

describe("fs storage atomic writes: the temp file", () => {
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

describe("fs storage atomic writes: temp names", () => {
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
