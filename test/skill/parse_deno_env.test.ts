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
  "Deno without --allow-env: skills parse all the same, and the environment stays refused",
  { skip: deno === undefined ? "Deno only" : false },
  async () => {
    // yaml's debug switches LOG_TOKENS and LOG_STREAM read as unset; the parse does not need them.
    assert.deepEqual(await probe([]), { success: true, name: "demo", after: "NotCapable" });
    assert.deepEqual(await probe(["--allow-env=LOG_TOKENS,LOG_STREAM"]), {
      success: true,
      name: "demo",
      after: "NotCapable",
    });
    assert.deepEqual(await probe(["--allow-env"]), {
      success: true,
      name: "demo",
      after: "readable",
    });
  },
);
