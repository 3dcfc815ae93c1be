import { test } from "node:test";
import assert from "node:assert/strict";

const deno = (globalThis as { Deno?: typeof Deno }).Deno;

/** Runs _no_env_probe.ts in a fresh Deno with `flags`; returns its JSON line. */
async function probe(flags: string[]): Promise<Record<string, unknown>> {
  const command = new deno!.Command(deno!.execPath(), {
    args: ["run", "--no-prompt", ...flags, new URL("./_no_env_probe.ts", import.meta.url).href],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  return JSON.parse(decoder.decode(stdout));
}

test(
  "Deno without --allow-env: a SkillParseError says which flag to add",
  { skip: deno === undefined ? "Deno only" : false },
  async () => {
    const denied = await probe([]);
    assert.equal(denied.success, false);
    assert.equal(denied.name, "SkillParseError");
    assert.equal(denied.cause, "NotCapable");
    assert.match(
      String(denied.message),
      /run Deno with --allow-env=LOG_TOKENS,LOG_STREAM \(or -A\)/,
    );
    assert.deepEqual(await probe(["--allow-env=LOG_TOKENS,LOG_STREAM"]), { success: true });
  },
);
