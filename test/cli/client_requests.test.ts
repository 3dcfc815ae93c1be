// The CLI as a full MCP client against server-everything (Streamable HTTP): it declares
// elicitation (form and URL), sampling and roots, so the server offers it the tools it offers the
// playground, and it answers them — roots with the working directory (or --root, SKILLMUX_ROOTS),
// sampling with the configured model (an OpenAI-compatible and an Anthropic endpoint, local stubs
// here) or a refusal that says how to configure one, and elicitation declined with a note when
// stdin is not a terminal. (The form on a terminal is in interactive.test.ts.)
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { cli, ROOT, sub, tempHome } from "./_helpers.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let everything: TestServer;
let llm: http.Server;
let llmUrl: string;
const asked: Array<{ path: string; body: Record<string, unknown> }> = [];

const CONDITIONAL = [
  "everything__get-roots-list",
  "everything__trigger-elicitation-request",
  "everything__trigger-url-elicitation",
  "everything__trigger-sampling-request",
];

before(async () => {
  [home, everything] = await Promise.all([tempHome(), startEverything("streamableHttp")]);
  // An OpenAI-compatible and an Anthropic endpoint in one stub: it records what it was sent.
  llm = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const body = JSON.parse(text);
      asked.push({ path: req.url ?? "", body });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(
        req.url?.endsWith("/chat/completions")
          ? { choices: [{ message: { content: "a haiku from the stub (openai)" } }] }
          : { content: [{ type: "text", text: "a haiku from the stub (anthropic)" }] },
      ));
    });
  });
  await new Promise<void>((done) => llm.listen(0, "127.0.0.1", done));
  llmUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}`;
  assert.equal(
    (await cli(["mcp", "add", everything.url, "--name", "everything"], home.env)).code,
    0,
  );
  assert.equal((await cli(["approve", "--all"], home.env)).code, 0);
});
after(async () => {
  await everything.close();
  await new Promise((done) => llm.close(done));
  await home.close();
});

test("the server offers the CLI the tools it offers a full client (elicitation, sampling, roots)", async () => {
  const { stdout } = await cli(["tools", "everything", "--json"], home.env);
  const ids = (JSON.parse(stdout).tools as Array<{ id: string }>).map((t) => t.id);
  for (const id of CONDITIONAL) assert.ok(ids.includes(id), `${id} missing from ${ids.join(", ")}`);
  assert.equal(ids.length, 19);
});

test("roots: the working directory, --root folders, or SKILLMUX_ROOTS", async () => {
  const cwd = await sub(["call", "everything__get-roots-list"], home.env);
  assert.equal(cwd.code, 0, cwd.stderr);
  assert.match(cwd.stdout, new RegExp(`URI: file://${ROOT.replace(/\/$/, "")}\n`));
  const given = await sub([
    "call",
    "everything__get-roots-list",
    "--root",
    "/tmp",
    "--root",
    "/srv",
  ], home.env);
  assert.match(given.stdout, /Current MCP Roots \(2 total\)/);
  assert.match(given.stdout, /URI: file:\/\/\/tmp\n[^]*URI: file:\/\/\/srv\n/);
  const env = await sub(["call", "everything__get-roots-list"], {
    ...home.env,
    SKILLMUX_ROOTS: "/opt",
  });
  assert.match(env.stdout, /URI: file:\/\/\/opt\n/);
});

test("sampling without a model is refused with how to configure one", async () => {
  const { code, stdout, stderr } = await sub(
    ["call", "everything__trigger-sampling-request", '{"prompt":"a haiku"}'],
    home.env,
  );
  assert.equal(code, 1);
  assert.match(stdout, /no model configured for sampling: set SKILLMUX_SAMPLING=openai:<model>/);
  assert.match(
    stderr,
    /"everything" asked for a model \(sampling\), but none is configured: refused/,
  );
});

test("sampling is answered by the configured model: --llm openai, or SKILLMUX_SAMPLING=anthropic:…", async () => {
  asked.length = 0;
  const openai = await sub([
    "call",
    "everything__trigger-sampling-request",
    '{"prompt":"a haiku about tides","maxTokens":77}',
    "--llm",
    "openai",
    "--model",
    "stub-model",
    "--base-url",
    `${llmUrl}/v1`,
  ], { ...home.env, OPENAI_API_KEY: "sk-stub" });
  assert.equal(openai.code, 0, openai.stderr);
  assert.match(openai.stdout, /a haiku from the stub \(openai\)/);
  assert.match(openai.stderr, /"everything" asks the model stub-model \(sampling\)/);
  assert.equal(asked[0].path, "/v1/chat/completions");
  assert.equal(asked[0].body.model, "stub-model");
  assert.equal(asked[0].body.max_tokens, 77);
  assert.equal(asked[0].body.response_format, undefined, "sampling asks for text, not JSON");
  const messages = asked[0].body.messages as Array<{ role: string; content: string }>;
  assert.match(messages.at(-1)!.content, /a haiku about tides/);
  const anthropic = await sub(
    ["call", "everything__trigger-sampling-request", '{"prompt":"a haiku"}'],
    {
      ...home.env,
      SKILLMUX_SAMPLING: "anthropic:claude-stub",
      SKILLMUX_SAMPLING_BASE_URL: llmUrl,
      ANTHROPIC_API_KEY: "sk-ant-stub",
    },
  );
  assert.equal(anthropic.code, 0, anthropic.stderr);
  assert.match(anthropic.stdout, /a haiku from the stub \(anthropic\)/);
  assert.equal(asked[1].path, "/v1/messages");
  const bad = await sub(
    ["call", "everything__trigger-sampling-request", '{"prompt":"x"}'],
    { ...home.env, SKILLMUX_SAMPLING: "gpt-4" },
  );
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /SKILLMUX_SAMPLING must be "openai:<model>" or "anthropic:<model>"/);
});

test("elicitation with stdin not a terminal is declined, and the CLI says why", async () => {
  const { code, stdout, stderr } = await sub(
    ["call", "everything__trigger-elicitation-request"],
    home.env,
  );
  assert.equal(code, 0, stderr);
  assert.match(stdout, /User declined to provide the requested information/);
  assert.match(
    stderr,
    /"everything" asks: Please provide inputs .* declined: no terminal to answer on/,
  );
});
