// `skillmux serve --stdio` as a real subprocess: this project's client and the official SDK client
// over stdio, stdout carrying only JSON-RPC, exit when stdin closes; a served folder that changes
// sends resources/list_changed; `serve --print-config`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connect } from "../../lib/mcp/client/client.ts";
import { stdio } from "../../lib/mcp/transport/stdio.ts";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { skillDoc } from "../server/_helpers.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { command, IS_DENO, ROOT, sub } from "./_helpers.ts";
import { createMcpSkillSource, createResolver } from "../../lib/mod.ts";
import { REAL_SKILLS, SHAPES, SHAPES_LOADED, skillFolders, tempDir } from "../_agent_skills.ts";
import { checkServedFiles, skillsList } from "../server/_served_files.ts";
import { within } from "../_wait.ts";

const [file, args] = command(["serve", "--stdio"]);
const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1" };
const text = (content: unknown) => (content as Array<{ text: string }>)[0].text;

test("this project's client over stdio: resources, a skill, search_skills", {
  timeout: 60_000,
}, async () => {
  const client = await connect(
    { name: "skillmux", command: file, args, cwd: ROOT, env },
    { stdio: stdio(), timeoutMs: 30_000 },
  );
  try {
    const resources = await client.listResources();
    const samtools = resources.find((r) => r.uri === "skill://samtools");
    assert.ok(samtools, resources.map((r) => r.uri).join(", "));
    const [contents] = await client.readResource("skill://samtools");
    assert.match((contents as { text: string }).text, /samtools/);
    const found = await client.callTool("search_skills", { query: "sort a BAM file" });
    assert.notEqual(found.isError, true);
    assert.match(text(found.content), /samtools/);
  } finally {
    await client.close();
  }
});

test("the official SDK client over stdio", { timeout: 60_000 }, async () => {
  const client = new Client({ name: "sdk-test", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command: file, args, cwd: ROOT, env }));
  try {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r: { uri: string }) => r.uri === "skill://samtools"));
    const read = await client.readResource({ uri: "skill://samtools" });
    assert.match((read.contents[0] as { text: string }).text, /samtools/);
    const found = await client.callTool({ name: "search_skills", arguments: { query: "BAM" } });
    assert.match(text(found.content), /samtools/);
  } finally {
    await client.close();
  }
});

test("stdout carries only JSON-RPC and the process exits when stdin closes", {
  timeout: 60_000,
}, async () => {
  const child = spawn(file, [...args, "--verbose"], { cwd: ROOT, env, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const send = (message: object) => child.stdin.write(JSON.stringify(message) + "\n");
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  send({ jsonrpc: "2.0", id: 3, method: "resources/list" });
  // Wait for the answers before closing stdin, so all three are on stdout.
  await within(
    new Promise<void>((done) => {
      const check = () => (stdout.includes('"id":3') ? done() : undefined);
      child.stdout.on("data", check);
      check();
    }),
    30_000,
    "answers on stdout",
  );
  child.stdin.end();
  const code = await within(exited, 10_000, "exit after stdin closed");
  assert.equal(code, 0, stderr);
  const lines = stdout.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 3, stdout);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", line);
  assert.deepEqual(lines.map((line) => JSON.parse(line).id), [1, 2, 3]);
  assert.match(stderr, /stdin closed/); // the logs went to stderr
});

test(
  "serve --print-config: an entry that runs on this machine from any folder, for Claude/Cursor and VS Code",
  {
    timeout: 60_000,
  },
  async () => {
    // From a clone (the package is on no registry yet): this runtime and the clone's entry by
    // absolute path, never an npx line that would answer E404.
    const expected = IS_DENO
      ? ["run", "-A", `${ROOT}lib/cli/main.ts`, "serve", "--stdio"]
      : [`${ROOT}bin/skillmux.mjs`, "serve", "--stdio"];
    const claude = await sub(["serve", "--print-config"], env);
    assert.equal(claude.code, 0, claude.stderr);
    assert.deepEqual(JSON.parse(claude.stdout), {
      mcpServers: { skillmux: { command: process.execPath, args: expected } },
    });
    const cursor = await sub(["serve", "--print-config", "--for", "cursor"], env);
    assert.deepEqual(JSON.parse(cursor.stdout), JSON.parse(claude.stdout));
    const vscode = await sub(["serve", "--print-config", "--for", "vscode"], env);
    assert.deepEqual(JSON.parse(vscode.stdout), {
      servers: { skillmux: { type: "stdio", command: process.execPath, args: expected } },
    });
    // A host runs it as printed, from its own folder: it serves.
    const entry = JSON.parse(claude.stdout).mcpServers.skillmux;
    const home = await mkdtemp(join(tmpdir(), "skillmux-host-"));
    const client = await connect(
      {
        name: "host",
        command: entry.command,
        args: entry.args,
        cwd: home,
        env: { ...env, HOME: home },
      },
      { stdio: stdio(), timeoutMs: 30_000 },
    );
    try {
      assert.ok((await client.listResources()).some((r) => r.uri === "skill://samtools"));
    } finally {
      await client.close();
      await rm(home, { recursive: true, force: true });
    }
    const folder = await sub(["serve", "examples/team-skills", "--print-config"], env);
    const served = JSON.parse(folder.stdout).mcpServers.skillmux;
    assert.equal(served.args.at(-1), `${ROOT}examples/team-skills`); // absolute: hosts run elsewhere
    const wrong = await sub(["serve", "--print-config", "--for", "emacs"], env);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Unknown --for "emacs": expected one of claude, cursor, vscode/);
  },
);

// The form every desktop host config uses: skills over stdio answer exactly as over HTTP
// (test/server/skill_files.test.ts): skills/list, resources/read of files, the tools.
for (const gateway of [false, true]) {
  const how = gateway ? "serve --gateway --stdio" : "serve --stdio <folder>";
  test(`${how}: the published skills and every file, through the SDK client`, {
    timeout: 120_000,
  }, async () => {
    const home = await tempDir("skillmux-stdio-");
    const argv = gateway
      ? ["serve", "--gateway", "--stdio", "--no-builtin", "--home", home, "--user-dir", REAL_SKILLS]
      : ["serve", "--stdio", REAL_SKILLS];
    const [bin, binArgs] = command(argv);
    const client = new Client({ name: "sdk-test", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: bin, args: binArgs, cwd: ROOT, env }));
    try {
      const names = await skillFolders(REAL_SKILLS);
      assert.equal((await skillsList(client)).length, 45);
      const checked = await checkServedFiles(client, REAL_SKILLS, names);
      assert.deepEqual(checked, { skills: 45, files: 159 });
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(["get_skill", "read_skill_file", "search_skills"].every((t) => tools.includes(t)));
    } finally {
      await client.close();
    }
  });
}

test("this project's client registered against its own stdio server lists and loads its skills", {
  timeout: 60_000,
}, async () => {
  const [bin, binArgs] = command(["serve", "--stdio", SHAPES]);
  const source = createMcpSkillSource(
    { name: "own", command: bin, args: binArgs, cwd: ROOT, env },
    // The resolver's own 5 s per source would cut the first list of a server still starting on
    // a loaded machine (the server loads 120 built-ins and the folder first).
    { connect: { stdio: stdio(), timeoutMs: 30_000 }, timeoutMs: 30_000 },
  );
  try {
    const resolver = createResolver({ sources: [[source]] });
    const listed = (await resolver.list()).skills.map((s) => s.name);
    assert.deepEqual(listed, SHAPES_LOADED);
    const hit = await resolver.resolve("pdf-form");
    assert.equal(hit.source, "mcp:own");
    assert.equal(hit.folder, "skill://pdf-form/");
    assert.deepEqual(hit.files.map((f) => f.path), [
      "LICENSE.txt",
      "references/fields.md",
      "scripts/fill.py",
      "scripts/list_fields.py",
    ]);
    const fill = await readFile(join(SHAPES, "pdf-form/scripts/fill.py"));
    assert.deepEqual(await hit.readFile("scripts/fill.py"), new Uint8Array(fill));
  } finally {
    await source.dispose();
  }
});

test("serve --stdio <folder>: the host hears resources/list_changed when a skill is added", {
  timeout: 60_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "skillmux-stdio-watch-"));
  await writeFile(join(dir, "alpha.md"), skillDoc("alpha", "Alpha skill. Use when testing."));
  const [watchFile, watchArgs] = command(["serve", "--stdio", dir]);
  const client = new Client({ name: "sdk-test", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({ command: watchFile, args: watchArgs, cwd: ROOT, env }),
  );
  try {
    const names = async () => (await client.listResources()).resources.map((r) => r.name).sort();
    assert.deepEqual(await names(), ["alpha"]);
    let told = 0;
    const changed = new Promise<void>((done) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        told++;
        done();
      })
    );
    await writeFile(join(dir, "gamma.md"), skillDoc("gamma", "Gamma skill. Use when testing."));
    await within(changed, 10_000, "notifications/resources/list_changed");
    assert.deepEqual(await names(), ["alpha", "gamma"]);
    await new Promise((done) => setTimeout(done, 1_500));
    assert.equal(told, 1, "told once per change");
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
});
