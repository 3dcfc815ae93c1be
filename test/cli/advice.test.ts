// Advice in CLI output names only what the CLI offers: plain http to a remote host has no CLI
// setting (no flag, no config.toml key), so the refusal says the library option is library-only
// instead of telling the user to "set urlPolicy.allowInsecureHttp".
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, tempHome } from "./_helpers.ts";

test("plain http to a remote host: the advice says the option is library-only", async () => {
  const home = await tempHome();
  try {
    const out = await cli(["mcp", "add", "http://example.com/mcp", "--name", "remote"], home.env);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /use https/);
    assert.match(out.stderr, /only the library option urlPolicy\.allowInsecureHttp/);
    assert.match(out.stderr, /CLI and the playground have no such setting/);
    assert.doesNotMatch(out.stderr, /set urlPolicy/);
  } finally {
    await home.close();
  }
});
