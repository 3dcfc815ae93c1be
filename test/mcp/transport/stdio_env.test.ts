// A stdio child gets the minimal environment plus its configured `env`, nothing else: a secret in
// this process's environment never reaches it. Real children (the echo fixture reports its
// `process.env`), under the runtime running the tests.
import assert from "node:assert/strict";
import process from "node:process";
import { test } from "node:test";
import { createStdioTransport, MINIMAL_ENV } from "../../../lib/mcp/transport/stdio.ts";
import { fixture, rpc, stdioServer } from "../_stdio_helpers.ts";

const SECRET_NAME = "SKILLMUX_RULES_PARENT_SECRET";
const SECRET = "sk-parent-only-7f3a9c";

/** The environment the echo fixture reports, spawned with `env` and `inheritEnv`. */
async function childEnv(
  env: Record<string, string>,
  inheritEnv?: "minimal" | "all" | readonly string[],
): Promise<Record<string, string>> {
  const transport = createStdioTransport(
    stdioServer("env", fixture("echo_server.ts"), { env }),
    inheritEnv === undefined ? {} : { inheritEnv },
  );
  try {
    const answer = await transport.request(rpc(1, "env"), { timeoutMs: 30_000 });
    assert.ok("result" in answer, JSON.stringify(answer));
    return (answer.result as { env: Record<string, string> }).env;
  } finally {
    await transport.close();
  }
}

/** Run `body` with `SECRET_NAME=SECRET` (and `OTHER_PARENT_VAR`) set in this process. */
async function withParentSecret(body: () => Promise<void>): Promise<void> {
  process.env[SECRET_NAME] = SECRET;
  process.env.OTHER_PARENT_VAR = "other";
  try {
    await body();
  } finally {
    delete process.env[SECRET_NAME];
    delete process.env.OTHER_PARENT_VAR;
  }
}

test("the child sees its configured env and the minimal set, never the parent's secret", async () => {
  await withParentSecret(async () => {
    const env = await childEnv({ SERVER_TOKEN: "configured-123", EMPTY: "" });
    assert.equal(env.SERVER_TOKEN, "configured-123");
    assert.equal(env.EMPTY, "");
    assert.equal(env[SECRET_NAME], undefined, "the parent's secret leaked");
    assert.equal(env.OTHER_PARENT_VAR, undefined);
    assert.ok(!Object.values(env).includes(SECRET), "the secret's value leaked under another name");
    assert.equal(env.PATH, process.env.PATH, "PATH is inherited");
    // Everything else the child has is either minimal, configured, or set by the runtime itself
    // (never a name copied from the parent beyond the minimal set).
    const parent = new Set(Object.keys(process.env));
    const copied = Object.keys(env).filter((name) =>
      parent.has(name) && !MINIMAL_ENV.includes(name) && env[name] === process.env[name]
    );
    assert.deepEqual(copied, [], `copied from the parent: ${copied.join(", ")}`);
  });
});

test("inheritEnv lists add only the names listed; configured env wins over inherited", async () => {
  await withParentSecret(async () => {
    const env = await childEnv({ HOME: "/configured/home" }, ["OTHER_PARENT_VAR"]);
    assert.equal(env.OTHER_PARENT_VAR, "other");
    assert.equal(env[SECRET_NAME], undefined);
    assert.equal(env.HOME, "/configured/home");
  });
});
