// The CLI's error family (lib/cli/_args.ts): a CliError says a failure the user can act on
// (exit code 1), a UsageError is one with code `usage` (exit code 2); both keep a stable `name`
// and the `cause`. Through run(), the command's one entry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CliError, UsageError } from "../../lib/cli/_args.ts";
import { run } from "../../lib/cli/run.ts";

test("a UsageError is a CliError of code `usage`; a CliError is `failed` and keeps its cause", () => {
  const usage = new UsageError("unknown flag --nope");
  assert.ok(usage instanceof CliError);
  assert.deepEqual([usage.name, usage.code], ["UsageError", "usage"]);
  const cause = new Error("EACCES");
  const failed = new CliError("cannot write the config", { cause });
  assert.deepEqual([failed.name, failed.code, failed.cause], ["CliError", "failed", cause]);
  assert.equal(Object.hasOwn(new CliError("x"), "cause"), false);
});

test("run() exits 2 for a usage error and names it", async () => {
  let err = "";
  const code = await run(["no-such-command"], {
    stdout: () => {},
    stderr: (text) => (err += text),
    env: {},
  });
  assert.equal(code, 2);
  assert.match(err, /^skillmux: /);
});
