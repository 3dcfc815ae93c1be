// `skillmux call` and `skillmux tools` as child processes against server-everything (Streamable
// HTTP): a tool run by catalog id, arguments checked first, held entries refused, --json,
// --timeout, and Ctrl-C (SIGINT) cancelling within a second or two.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { after, before, test } from "node:test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { cli, command, INVOKE, IS_DENO, ROOT, sub, tempHome } from "./_helpers.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let everything: TestServer;

before(async () => {
  [home, everything] = await Promise.all([tempHome(), startEverything("streamableHttp")]);
  const added = await cli(["mcp", "add", everything.url, "--name", "everything"], home.env);
  assert.equal(added.code, 0, added.stderr);
  const ids = [
    "everything__echo",
    "everything__trigger-long-running-operation",
    "everything__simulate-research-query",
  ];
  assert.equal((await cli(["approve", ...ids], home.env)).code, 0);
});
after(async () => {
  await everything.close();
  await home.close();
});

test("call: runs an approved tool by catalog id and prints its text", async () => {
  const { code, stdout, stderr } = await sub(
    ["call", "everything__echo", '{"message":"héllo \\u001b[31mred"}'],
    home.env,
  );
  assert.equal(code, 0, stderr);
  assert.equal(stdout, "Echo: héllo [31mred\n", "the escape character is removed");
});

test("call: arguments are checked against the input schema before sending", async () => {
  const bad = await sub(["call", "everything__echo", '{"msg":"hi"}'], home.env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid arguments for "everything__echo".*"message"/);
  const notJson = await sub(["call", "everything__echo", "{nope"], home.env);
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, /not valid JSON/);
});

test("call: a held entry is refused with the approve command to run", async () => {
  const { code, stderr } = await sub(["call", "everything__get-sum", '{"a":1,"b":2}'], home.env);
  assert.equal(code, 1);
  // One way to run a command in every hint: the one that runs from this clone.
  assert.match(
    stderr,
    new RegExp(
      `waits for approval; review it with "${INVOKE} approve", then run: ${INVOKE} approve everything__get-sum`,
    ),
  );
  assert.doesNotMatch(stderr, /npm run cli|skillmux approve/);
  const unknown = await sub(["call", "everything__nope"], home.env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No catalog entry "everything__nope"/);
});

test("call --json prints the raw result; --timeout ends a silent call", async () => {
  const json = await sub(
    ["call", "everything__trigger-long-running-operation", '{"duration":1,"steps":2}', "--json"],
    home.env,
  );
  assert.equal(json.code, 0, json.stderr);
  assert.match(JSON.parse(json.stdout).content[0].text, /Duration: 1 seconds, Steps: 2/);
  const slow = await sub(
    [
      "call",
      "everything__trigger-long-running-operation",
      '{"duration":4,"steps":1}',
      "--timeout",
      "500",
    ],
    home.env,
  );
  assert.equal(slow.code, 1);
  assert.match(slow.stderr, /timed out: no answer and no progress for 500 ms/);
});

test("call: off a terminal the progress line degrades to plain lines, one a second at most", async () => {
  const { code, stderr } = await sub(
    ["call", "everything__trigger-long-running-operation", '{"duration":3,"steps":12}'],
    home.env,
  );
  assert.equal(code, 0, stderr);
  const lines = stderr.split("\n").filter((l) =>
    l.startsWith("everything__trigger-long-running-operation: ")
  );
  assert.ok(
    lines.length >= 2 && lines.length <= 5,
    `${lines.length} lines for 12 updates:\n${stderr}`,
  );
  for (const line of lines) assert.match(line, /: \d+\/12 \(\d+%\)/);
  assert.doesNotMatch(stderr, /\r|\\u000d|\\u001b/, "no terminal codes, raw or written out");
});

test("call: Ctrl-C (SIGINT) cancels the call and exits 130 within 2 s", async () => {
  const [file, args] = command([
    "call",
    "everything__trigger-long-running-operation",
    '{"duration":60,"steps":60}',
    "--progress",
  ]);
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...home.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // Deno's node:child_process reports a child it sent a signal to as ended by that signal, even
  // when the child exited with its own code (130 here): there the "cancelled" line tells.
  const exited = new Promise<number | null>((done) =>
    child.on("exit", (code, signal) => done(IS_DENO && signal === "SIGINT" ? 130 : code))
  );
  // The first progress line: the call is in flight.
  for (let i = 0; i < 300 && !/: 1\/60 \(2%\)/.test(stderr); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(stderr, /everything__trigger-long-running-operation: 1\/60 \(2%\)/);
  const start = performance.now();
  child.kill("SIGINT");
  const code = await Promise.race([
    exited,
    new Promise<"hung">((done) => setTimeout(() => done("hung"), 5_000)),
  ]);
  if (code === "hung") child.kill("SIGKILL");
  const took = performance.now() - start;
  assert.equal(code, 130, stderr);
  assert.ok(took < 2_000, `exited ${Math.round(took)} ms after SIGINT`);
  assert.match(stderr, /"everything__trigger-long-running-operation" cancelled/);
});

test("tools: ids, annotations and argument summaries; --json", async () => {
  const { code, stdout, stderr } = await sub(["tools", "everything"], home.env);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^everything__echo \[read-only, idempotent\]\n {2}message\*: string\n/m);
  assert.match(stdout, /everything__get-sum \(waits for approval\)\n {2}a\*: number, b\*: number/);
  const json = JSON.parse((await sub(["tools", "--json"], home.env)).stdout);
  const research = json.tools.find((t: { id: string }) => t.id.endsWith("simulate-research-query"));
  assert.equal(research?.taskSupport, "required");
  assert.match(stdout, /everything__simulate-research-query \[task required\]/);
  assert.equal((await sub(["tools", "nobody"], home.env)).code, 1);
});

test("call: a task-required tool runs as a task, with task status lines", async () => {
  const { code, stdout, stderr } = await sub(
    ["call", "everything__simulate-research-query", '{"topic":"nanopore"}', "--progress"],
    home.env,
  );
  assert.equal(code, 0, stderr);
  assert.match(stdout, /# Research Report: nanopore/);
  assert.match(stderr, /everything__simulate-research-query: task working Gathering sources/);
  assert.match(stderr, /everything__simulate-research-query: task completed/);
});

test("call and approve: a mistyped catalog id gets a did-you-mean", async () => {
  const call = await sub(["call", "everything__eco", '{"message":"hi"}'], home.env);
  assert.equal(call.code, 1);
  assert.match(
    call.stderr,
    /No catalog entry "everything__eco".*; did you mean "everything__echo"\?/,
  );
  // A held entry is a catalog id too: approve suggests it.
  const approve = await sub(["approve", "everything__get-sun"], home.env);
  assert.equal(approve.code, 1);
  assert.match(
    approve.stderr,
    /No catalog entry "everything__get-sun"; did you mean "everything__get-sum"\?/,
  );
  const far = await sub(["call", "zzzz"], home.env);
  assert.doesNotMatch(far.stderr, /did you mean/);
});
