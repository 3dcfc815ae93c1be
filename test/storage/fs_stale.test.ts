// Writers killed with kill -9 in the middle of atomic writes: the temp files they leave behind
// are swept by a later write in that folder once stale (and by the first use of the root in a
// process), a live writer's temp file is left alone, and no value is ever torn.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import { STALE_TEMP_MS } from "../../lib/storage/_fs_stale.ts";
import { TEMP_PREFIX } from "../../lib/storage/fs_write.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { bundleScript } from "./_bundle.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

const KILLS = 50;
const VALUE = /^\d+:([a-z])\1{262143}$/; // "<n>:" and 256 KiB of one letter

/** Start the writer, wait for "ready" and a few writes, then kill -9 it. */
function killMidWrite(script: string, root: string, delayMs: number): Promise<void> {
  const args = "Deno" in globalThis ? ["run", "-A", script, root] : [script, root];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const bail = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("error", reject);
    child.stdout.once("data", () => setTimeout(() => child.kill("SIGKILL"), delayMs));
    child.once("exit", (code, signal) => {
      clearTimeout(bail);
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`the writer exited by itself (code ${code}) instead of being killed`));
    });
  });
}

const temps = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.startsWith(TEMP_PREFIX));

describe("fs storage: temp files of killed writers", {
  skip: process.platform === "win32" && "kill -9 is POSIX",
}, () => {
  test(`${KILLS} writers killed with kill -9: leftovers swept once stale, no value torn`, async () => {
    const root = await makeTempDir();
    const script = await bundleScript(new URL("./_loop_writer.ts", import.meta.url));
    // A whole value first: on a loaded machine every writer may be killed before its first write
    // lands, and a.md must then still hold a whole value (this one), not be missing.
    await createFsStorage({ root }).set("a.md", `0:${"a".repeat(256 << 10)}`);
    for (let i = 0; i < KILLS; i++) await killMidWrite(script, root, 5 + (i * 7) % 40);
    const left = await temps(root);
    assert.ok(
      left.length > 0,
      `${KILLS} kills mid-write left no temp file: the test proves nothing`,
    );
    assert.match(await readFile(path.join(root, "a.md"), "utf8"), VALUE, "a.md is a whole value");

    // Fresh, they could be a live writer's: a write now keeps them.
    const store = createFsStorage({ root });
    await store.set("b.md", "written right after the kills");
    assert.deepEqual(await temps(root), left);
    // Age them past the limit, and add one young temp file, as a writer running right now has.
    const old = new Date(Date.now() - STALE_TEMP_MS - 60_000);
    for (const name of left) await utimes(path.join(root, name), old, old);
    const live = `${TEMP_PREFIX}${"0".repeat(24)}`;
    await writeFile(path.join(root, live), "being written");
    await store.set("b.md", "written after the kills");

    assert.deepEqual(await temps(root), [live], "stale temp files removed, the live one kept");
    assert.deepEqual(await store.keys(), ["a.md", "b.md"]);
    assert.match((await store.get("a.md"))!, VALUE);
    assert.equal(await store.get("b.md"), "written after the kills");
  });
});

describe("fs storage: the first use of a root sweeps it", () => {
  /** Wait (at most 5 s) until `dir` holds exactly the temp files `expected`. */
  async function settle(dir: string, expected: string[]): Promise<string[]> {
    for (let i = 0; i < 100; i++) {
      const now = await temps(dir);
      if (now.join() === expected.join()) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await temps(dir);
  }

  test("opening and reading removes a stale temp file, keeps a young one, once per process", async () => {
    const root = await makeTempDir();
    await writeFile(path.join(root, "a.md"), "kept");
    const stale = `${TEMP_PREFIX}${"a".repeat(24)}`;
    const young = `${TEMP_PREFIX}${"b".repeat(24)}`;
    const old = new Date(Date.now() - STALE_TEMP_MS - 60_000);
    await writeFile(path.join(root, stale), "a killed writer's");
    await utimes(path.join(root, stale), old, old);
    // A live writer's, just under the limit.
    const recent = new Date(Date.now() - STALE_TEMP_MS + 60_000);
    await writeFile(path.join(root, young), "being written");
    await utimes(path.join(root, young), recent, recent);

    const store = createFsStorage({ root });
    assert.equal(await store.get("a.md"), "kept");
    assert.deepEqual(await settle(root, [young]), [young], "the stale temp file is gone");

    // The sweep runs once per root and process: a later one waits for the next write.
    const later = `${TEMP_PREFIX}${"c".repeat(24)}`;
    await writeFile(path.join(root, later), "another killed writer's");
    await utimes(path.join(root, later), old, old);
    assert.equal(await createFsStorage({ root }).get("a.md"), "kept");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await temps(root), [young, later].sort());
    await store.set("b.md", "written");
    assert.deepEqual(await temps(root), [young]);
  });
});
