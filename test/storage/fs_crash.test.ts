import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

const writer = fileURLToPath(new URL("./_crash_writer.ts", import.meta.url));

/** The current runtime's command to run a TS file (Deno without its V8 code cache, a SQLite file that
 * outgrows `ulimit -f` on a cold cache; or Node with tsx). */
function runtimeArgs(file: string): string[] {
  return "Deno" in globalThis
    ? [process.execPath, "run", "-A", "--no-code-cache", file]
    : [process.execPath, "--import", "tsx", file];
}

/** Run the writer once without a limit and without writing, so its runtime's caches are filled. */
function warm(root: string): Promise<void> {
  const [command, ...args] = runtimeArgs(writer);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args, "--warm", root],
      { timeout: 60_000 },
      (error) => error ? reject(error) : resolve(),
    );
  });
}

/** Run the writer under `ulimit -f 512` (512 KiB): it fails or dies mid-way through 4 MiB. */
function runLimited(root: string): Promise<Outcome> {
  const args = ["-c", 'ulimit -f 512 && exec "$@"', "bash", ...runtimeArgs(writer), root];
  return new Promise((resolve) => {
    execFile("bash", args, { timeout: 60_000 }, (error, stdout, stderr) => {
      const failure = error as { code?: number; signal?: string } | null;
      resolve({ code: failure?.code ?? 0, signal: failure?.signal ?? null, stdout, stderr });
    });
  });
}

interface Outcome {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

describe("fs storage crash safety", { skip: process.platform === "win32" && "needs bash" }, () => {
  test("a writer killed or failing mid-write (file size limit) leaves the old value", async () => {
    const root = await makeTempDir();
    await writeFile(path.join(root, "a.md"), "old value");
    await warm(root);
    const result = await runLimited(root);
    // Node ignores SIGXFSZ and gets EFBIG (the temp file is removed); Deno dies of SIGXFSZ
    // mid-write (the temp file stays behind, as after a power cut).
    assert.equal(result.stdout, "writing\n", `the writer must start, then fail: ${result.stderr}`);
    assert.ok(result.code !== 0 || result.signal !== null, "the writer must not succeed");
    assert.equal(await readFile(path.join(root, "a.md"), "utf8"), "old value");
    const store = createFsStorage({ root });
    assert.equal(await store.get("a.md"), "old value");
    assert.deepEqual(await store.keys(), ["a.md"]);
    const leftovers = (await readdir(root)).filter((name) => name !== "a.md");
    assert.ok(leftovers.every((name) => name.startsWith(".tmp-")), `${leftovers}`);
    await store.set("a.md", "recovered");
    assert.equal(await store.get("a.md"), "recovered");
  });
});
