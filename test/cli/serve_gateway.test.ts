// `skillmux serve --gateway --stdio` as a real subprocess over a temporary home with
// server-everything registered (`mcp add`) and its tools approved (`approve`) but one: the
// official SDK client and this project's client list and call the approved tools, the held one
// is absent until `skillmux approve` (another process) approves it, which the gateway announces
// with notifications/tools/list_changed; `serve --print-config --gateway`.
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connect } from "../../lib/mcp/client/client.ts";
import { stdio } from "../../lib/mcp/transport/stdio.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { cli, command, ROOT, sub, tempHome } from "./_helpers.ts";
import { within } from "../_wait.ts";

const HELD = "everything__get-env";
const [file, args] = command(["serve", "--gateway", "--stdio"]);
let everything: TestServer;
let home: Awaited<ReturnType<typeof tempHome>>;
let env: Record<string, string>;

before(async () => {
  everything = await startEverything("streamableHttp");
  home = await tempHome();
  env = { ...home.env, PATH: process.env.PATH ?? "" };
  const added = await cli(["mcp", "add", everything.url, "--name", "everything"], env);
  assert.equal(added.code, 0, added.stderr);
  const listed = await cli(["approve", "--json"], env);
  const held = JSON.parse(listed.stdout).held as Array<{ entry: { id: string; kind: string } }>;
  const ids = held.filter((h) => h.entry.kind === "tool" && h.entry.id !== HELD).map((h) =>
    h.entry.id
  );
  assert.ok(ids.includes("everything__echo"), ids.join(", "));
  const approved = await cli(["approve", ...ids], env);
  assert.equal(approved.code, 0, approved.stderr);
});
after(async () => {
  await everything.close();
  await home.close();
});

const text = (content: unknown) => JSON.stringify(content);

test("this project's client over stdio: approved tools listed and called, the held one absent", {
  timeout: 60_000,
}, async () => {
  const client = await connect(
    { name: "gateway", command: file, args, cwd: ROOT, env },
    { stdio: stdio(), timeoutMs: 30_000 },
  );
  try {
    const tools = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("everything__echo"), names.join(", "));
    assert.ok(names.includes("search_skills"));
    assert.ok(!names.includes(HELD));
    const echoed = await client.callTool("everything__echo", { message: "over stdio" });
    assert.match(text(echoed.content), /over stdio/);
    const [skill] = await client.readResource("skill://samtools");
    assert.match((skill as { text: string }).text, /samtools/);
  } finally {
    await client.close();
  }
});

test(
  "the SDK client over stdio: progress, then list_changed when `skillmux approve` approves the held tool",
  {
    timeout: 90_000,
  },
  async () => {
    const client = new Client({ name: "sdk-test", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: file, args, cwd: ROOT, env }));
    try {
      const seen: number[] = [];
      const long = await client.callTool(
        {
          name: "everything__trigger-long-running-operation",
          arguments: { duration: 0.3, steps: 3 },
        },
        undefined,
        { onprogress: (p: { progress: number }) => void seen.push(p.progress) },
      );
      assert.notEqual(long.isError, true, text(long.content));
      // The last step's notification may cross the result on the way: two of three must arrive.
      assert.ok(seen.length >= 2, `progress: ${seen.join(", ")}`);
      assert.ok(!(await client.listTools()).tools.some((t: { name: string }) => t.name === HELD));
      const changed = new Promise<void>((done) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => done())
      );
      const approved = await cli(["approve", HELD], env);
      assert.equal(approved.code, 0, approved.stderr);
      await within(changed, 20_000, "notifications/tools/list_changed");
      assert.ok((await client.listTools()).tools.some((t: { name: string }) => t.name === HELD));
    } finally {
      await client.close();
    }
  },
);

test("serve --print-config --gateway: the entry runs serve --gateway --stdio", {
  timeout: 60_000,
}, async () => {
  const plain = await sub(["serve", "--print-config", "--gateway"], env);
  assert.equal(plain.code, 0, plain.stderr);
  const entry = JSON.parse(plain.stdout).mcpServers.skillmux;
  assert.equal(entry.command, process.execPath);
  assert.deepEqual(entry.args.slice(-3), ["serve", "--gateway", "--stdio"]);
  const vscode = await sub([
    "serve",
    "--print-config",
    "--gateway",
    "--discover",
    "--for",
    "vscode",
  ], env);
  const server = JSON.parse(vscode.stdout).servers.skillmux;
  assert.equal(server.type, "stdio");
  assert.deepEqual(server.args.slice(-4), ["serve", "--gateway", "--stdio", "--discover"]);
  const folder = await sub(["serve", "skills", "--gateway", "--print-config"], env);
  assert.equal(folder.code, 1);
  assert.match(folder.stderr, /--gateway serves the skills of every source/);
});

test(
  "serve --gateway --discover --feedback <file>: find_tools ranks with the labelled requests, only with the flag",
  {
    timeout: 90_000,
  },
  async () => {
    const { writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const labels = join(home.dir, "labels.jsonl");
    await writeFile(
      labels,
      '{"request": "say these words again", "expected": ["everything__echo"]}\n',
    );
    const first = async (extra: string[]) => {
      const [bin, argv] = command(["serve", "--gateway", "--discover", "--stdio", ...extra]);
      const client = await connect(
        { name: "gateway", command: bin, args: argv, cwd: ROOT, env },
        { stdio: stdio(), timeoutMs: 30_000 },
      );
      try {
        const found = await client.callTool("find_tools", { query: "say my words again to me" });
        const tools = (found.structuredContent as { tools?: Array<{ id: string }> })?.tools ?? [];
        return tools.map((t) => t.id);
      } finally {
        await client.close();
      }
    };
    assert.equal((await first(["--feedback", labels]))[0], "everything__echo");
    assert.ok(!(await first([])).includes("everything__echo"));
    const alone = await sub(["serve", "--feedback", labels], env);
    assert.equal(alone.code, 1);
    assert.match(alone.stderr, /--feedback goes with --gateway/);
    const printed = await sub(["serve", "--print-config", "--gateway", "--feedback", labels], env);
    assert.deepEqual(
      JSON.parse(printed.stdout).mcpServers.skillmux.args.slice(-5),
      ["serve", "--gateway", "--stdio", "--feedback", labels],
    );
  },
);
