// `skillmux` as a real child process against an HTTP server that echoes the credentials in
// every JSON-RPC error: `mcp add --api-key K`, `mcp ping`, `mcp refresh`, `mcp list`, `mcp update`
// and `catalog` print what went wrong, and never the key or a header secret (in any encoding),
// on stdout or stderr, in text or JSON output, stack traces included (SKILLMUX_DEBUG).
import assert from "node:assert/strict";
import { test } from "node:test";
import { REDACTED } from "../../lib/mcp/policy/redact.ts";
import { startEchoServer } from "../mcp/_echo_server.ts";
import { API_KEY, assertNoLeak, HEADER_SECRET } from "../mcp/_leak.ts";
import { type Result, sub, tempHome } from "./_helpers.ts";

const OTHER_KEY = "sk-other-Q1/w+e=r";
const SECRETS = [API_KEY, HEADER_SECRET, OTHER_KEY];

test("the CLI never prints an echoed key: mcp add, ping, refresh, list, update, catalog", async () => {
  const server = await startEchoServer({ era: "legacy", form: "sse", failOn: "*" });
  const home = await tempHome();
  const env = { ...home.env, SKILLMUX_DEBUG: "1" };
  const outputs: Array<[string, Result]> = [];
  const cli = async (...argv: string[]) => {
    const result = await sub(argv, env);
    outputs.push([argv.join(" "), result]);
    return result;
  };
  const secretArgs = ["--api-key", API_KEY, "--header", `X-Api-Key: ${HEADER_SECRET}`];
  try {
    const refused = await cli("mcp", "add", server.url, "--name", "echo", ...secretArgs);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /invalid api key \[redacted\]/);

    const added = await cli(
      "mcp",
      "add",
      server.url,
      "--name",
      "echo",
      ...secretArgs,
      "--no-verify",
    );
    assert.equal(added.code, 0, added.stderr);

    const ping = await cli("mcp", "ping");
    assert.notEqual(ping.code, 0);
    assert.ok(`${ping.stdout}${ping.stderr}`.includes(REDACTED), ping.stdout + ping.stderr);
    await cli("mcp", "ping", "--json");
    await cli("mcp", "refresh");
    await cli("mcp", "refresh", "--json");
    const list = await cli("mcp", "list");
    assert.equal(list.code, 0, list.stderr);
    await cli("mcp", "list", "--json");

    const update = await cli("mcp", "update", "echo", "--api-key", OTHER_KEY);
    assert.equal(update.code, 1, update.stderr);
    assert.match(update.stderr, /invalid api key \[redacted\]/);

    const catalog = await cli("catalog");
    assert.match(catalog.stderr, /warning: .*\[redacted\]/);
    await cli("catalog", "--json");

    for (const [command, { stdout, stderr }] of outputs) {
      assertNoLeak(stdout, SECRETS, `stdout of "${command}"`);
      assertNoLeak(stderr, SECRETS, `stderr of "${command}"`);
    }
    assert.ok(server.echoes >= 6, `the server echoed ${server.echoes} times`);
  } finally {
    await server.close();
    await home.close();
  }
});
