// A reader that stops early (`skillmux skill list | head -1`) closes the pipe: the CLI ends quietly
// with exit 0, as Unix tools do, instead of an unhandled EPIPE error.

import { spawn } from "node:child_process";
import process from "node:process";
import { test } from "node:test";
import assert from "node:assert/strict";
import { command, ROOT, tempHome } from "./_helpers.ts";

test("skill list into a reader that closes after the first line: exit 0, no EPIPE", async () => {
  const home = await tempHome();
  try {
    const [file, args] = command(["skill", "list"]);
    const child = spawn(file, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...home.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    // Read the first chunk, then close our end as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.once("close", (c) => (clearTimeout(timer), resolve(c)));
    });
    assert.doesNotMatch(stderr, /EPIPE|Unhandled|Uncaught/);
    assert.equal(code, 0);
  } finally {
    await home.close();
  }
});
