// `skillmux serve --gateway --stdio` as a real subprocess over a temporary home with
// server-everything registered (`mcp add`) and its tools approved (`approve`) but one: the
// official SDK client and this project's client list and call the approved tools, the held one
// is absent until `skillmux approve` (another process) approves it, which the gateway announces
// with notifications/tools/list_changed; pins from --pin and config.toml's [gateway] table; a
// skill added to the user's folder sends notifications/resources/list_changed; a task relayed;
// `serve --print-config --gateway`.
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connect } from "../../lib/mcp/client/client.ts";
import { stdio } from "../../lib/mcp/transport/stdio.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, command, INVOKE, ROOT, sub, tempHome } from "./_helpers.ts";
import { waitUntil, within } from "../_wait.ts";

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
  "this project's client (which declares tasks) over stdio: a task-required tool runs as a task relayed by the gateway",
  {
    timeout: 60_000,
  },
  async () => {
    const client = await connect(
      { name: "gateway", command: file, args, cwd: ROOT, env },
      { stdio: stdio(), timeoutMs: 30_000 },
    );
    try {
      assert.ok((client.capabilities as { tasks?: unknown }).tasks, "the gateway declares tasks");
      const research = (await client.listTools()).find((t) =>
        t.name === "everything__simulate-research-query"
      );
      assert.deepEqual(research?.execution, { taskSupport: "required" });
      const statuses: string[] = [];
      const result = await client.callTool("everything__simulate-research-query", {
        topic: "glaciers",
      }, { task: true, onTaskStatus: (task) => statuses.push(task.status) });
      assert.match(text(result.content), /Research Report: glaciers/);
      assert.equal(statuses[0], "working");
    } finally {
      await client.close();
    }
  },
);

test(
  "--pin and [gateway] pinned: listed with --discover; a held pin and an unknown pin are warned of",
  {
    timeout: 60_000,
  },
  async () => {
    const config = join(env.XDG_CONFIG_HOME, "skillmux", "config.toml");
    const original = await readFile(config, "utf8");
    await writeFile(config, `${original}\n[gateway]\npinned = ["everything__echo"]\n`);
    const [pinFile, pinArgs] = command([
      "serve",
      "--gateway",
      "--stdio",
      "--discover",
      "--pin",
      "everything__get-su?",
      "--pin",
      HELD,
      "--pin",
      "nobody__*",
    ]);
    const transport = new StdioClientTransport({
      command: pinFile,
      args: pinArgs,
      cwd: ROOT,
      env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Uint8Array) => void (stderr += String(chunk)));
    const client = new Client({ name: "sdk-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      assert.ok(names.includes("find_tools"), names.join(", "));
      assert.ok(names.includes("everything__echo"), `config.toml's pin: ${names.join(", ")}`);
      assert.ok(names.includes("everything__get-sum"), `--pin's glob: ${names.join(", ")}`);
      assert.ok(!names.includes(HELD), "a held pin is not listed");
      assert.ok(!names.includes("everything__get-tiny-image"), "an unpinned tool stays behind");
      const sum = await client.callTool({ name: "everything__get-sum", arguments: { a: 2, b: 3 } });
      assert.match(text(sum.content), /5/);
      await waitUntil(() => /no tool matches the pin/.test(stderr), 10_000);
      assert.match(
        stderr,
        new RegExp(
          `warning: pinned, not listed: 1 tool waits for approval and cannot be called yet: ` +
            `${HELD}\\. Approve it with: ${INVOKE} approve ${HELD}`,
        ),
      );
      assert.match(stderr, /warning: no tool matches the pin "nobody__\*"/);
    } finally {
      await client.close();
    }
    // A [gateway] table that is wrong is an error naming the file and the field.
    await writeFile(config, `${original}\n[gateway]\npinned = "everything__echo"\n`);
    try {
      const bad = await sub(["serve", "--gateway", "--stdio"], env);
      assert.equal(bad.code, 1, bad.stderr);
      assert.match(bad.stderr, /config\.toml: \[gateway\] pinned must be a list of tool ids/);
    } finally {
      await writeFile(config, original);
    }
    const loose = await sub(["serve", "--pin", "x"], env);
    assert.equal(loose.code, 1);
    assert.match(loose.stderr, /--pin goes with --gateway/);
  },
);

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

test(
  "a skill added to the user's folder: the host of the stdio gateway hears resources/list_changed",
  {
    timeout: 60_000,
  },
  async () => {
    const skills = join(env.XDG_CONFIG_HOME, "skillmux", "skills");
    await mkdir(skills, { recursive: true });
    const client = new Client({ name: "sdk-test", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: file, args, cwd: ROOT, env }));
    try {
      const uris = async () => (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(!(await uris()).includes("skill://gamma-notes"));
      const changed = new Promise<void>((done) =>
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => done())
      );
      await writeFile(
        join(skills, "gamma-notes.md"),
        "---\nname: gamma-notes\ndescription: Gamma notes. Use when testing.\n---\n\n## Concepts\n\n- One.\n",
      );
      await within(changed, 20_000, "notifications/resources/list_changed");
      assert.ok((await uris()).includes("skill://gamma-notes"));
    } finally {
      await client.close();
      await rm(join(skills, "gamma-notes.md"), { force: true });
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
  const pinned = await sub(["serve", "--print-config", "--gateway", "--pin", "a__*"], env);
  assert.deepEqual(JSON.parse(pinned.stdout).mcpServers.skillmux.args.slice(-5), [
    "serve",
    "--gateway",
    "--stdio",
    "--pin",
    "a__*",
  ]);
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
