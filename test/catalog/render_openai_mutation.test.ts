// Where the fourth mutation run of `catalog` found the listing, the OpenAI adapter, remote schemas
// and the LLM calls' errors loosely held (issue 19): what a token budget keeps (lines counted
// lazily against the budget less a fixed allowance, a budget exactly the whole listing or exactly
// its headings, the request's best entries counted once, a counter that changes its answer), tool
// ids shown whole when they do not start with their server's name, an OpenAI answer whose first
// choice holds no text, JSON mode turned off, errors given as a string or a top-level message or
// too long, a refused connection and a cancel by the caller, and remote tool definitions a host
// can still adjust. Real catalogs of host functions and an MCP server on 127.0.0.1, a fake
// OpenAI-compatible server on 127.0.0.1 (never the real APIs); token counts by lines or characters,
// so every figure is known.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  connect,
  createCatalog,
  createMemoryStorage,
  type HostFunction,
} from "../../lib/mod.ts";
import { createOpenAiModel, isLlmError, type LlmError } from "../../lib/catalog/llm/llm.ts";
import { type LlmAnswer, openAiAnswer, startFakeLlm, startToolServer } from "./_servers.ts";
import { deadUrl } from "../_closed_port.ts";
import { selection } from "../_selection.ts";

const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});
/** A token counter that counts lines: every line of a listing costs exactly one token. */
const lines = (text: string) => text.split("\n").filter(Boolean).length;
const chars = (text: string) => text.length;
/** Remote entries usable at once (the default holds them until approved). */
const approvals = () => ({ storage: createMemoryStorage(), remote: "auto" as const });

describe("render within a budget", () => {
  // Twenty functions, one kind: the whole listing is its heading and 20 lines (21 tokens); the
  // headings' floor is "(no entries)" and the omission note (2); the allowance on top of the
  // lines is the floor and two per kind of entry (2 + 3 × 2 = 8).
  const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, "0")}`);
  const FUNCTIONS = names.map((name) => fn(name, `Runs step ${name} of the pipeline`));

  test("lines are counted one by one until the next no longer fits the budget less the allowance", async () => {
    const catalog = await createCatalog({ functions: FUNCTIONS });
    const asked: string[] = [];
    const counting = (text: string) => (asked.push(text), lines(text));
    const cut = await catalog.render({ budget: 12, countTokens: counting });
    // 8 + 4 lines = 12 fit; the fifth does not: four entries, then the listing checked once.
    assert.deepEqual(cut.ids, names.slice(0, 4));
    assert.equal(cut.omitted, 16);
    assert.equal(cut.tokens, 6);
    assert.equal(
      cut.text,
      [
        "Functions of this application:",
        ...names.slice(0, 4).map((n) => `${n}: Runs step ${n} of the pipeline`),
        "(16 more entries left out to fit the token budget)",
        "",
      ].join("\n"),
    );
    // Five lines counted (the four shown and the first left out), nothing further down; and three
    // listings: the whole one, the headings' floor, the result.
    const lineCalls = asked.filter((t) => t.indexOf("\n") === t.length - 1);
    assert.deepEqual(
      lineCalls,
      names.slice(0, 5).map((n) => `${n}: Runs step ${n} of the pipeline\n`),
    );
    assert.equal(asked.length - lineCalls.length, 3);
    // Counted again with the lines known, the budget keeps the same entries.
    assert.deepEqual(await catalog.render({ budget: 12, countTokens: counting }), cut);
  });

  test("a budget of exactly the whole listing shows it whole; one of exactly the headings shows none", async () => {
    const catalog = await createCatalog({ functions: FUNCTIONS });
    const whole = await catalog.render({ countTokens: lines });
    assert.equal(whole.tokens, 21);
    const exact = await catalog.render({ budget: 21, countTokens: lines });
    assert.deepEqual(exact, whole);
    assert.equal(exact.omitted, 0);
    assert.deepEqual(exact.ids, names);
    const bare = await catalog.render({ budget: 2, countTokens: lines });
    assert.deepEqual(bare, {
      text: "(no entries)\n(20 more entries left out to fit the token budget)\n",
      tokens: 2,
      ids: [],
      omitted: 20,
    });
    await assert.rejects(catalog.render({ budget: 1, countTokens: lines }), RangeError);
  });

  test("the request's best entries are counted once, not again in catalog order", async () => {
    const functions = [
      fn("a_archive", "Archive finished sequencing runs"),
      fn("b_archive", "Archive raw reads to tape"),
      ...names.map((name) => fn(name, `Runs step ${name} of the pipeline`)),
    ];
    const catalog = await createCatalog({ functions });
    assert.deepEqual(catalog.rank("archive").map((r) => r.entry.id), ["a_archive", "b_archive"]);
    // 8 + 4 lines = 12: the two best, then the first two others in catalog order.
    const cut = await catalog.render({ budget: 12, request: "archive", countTokens: lines });
    assert.deepEqual(cut.ids, ["a_archive", "b_archive", "f00", "f01"]);
    assert.equal(cut.omitted, 18);
  });

  test("a counter that changes its answer for the same listing still ends the render", async () => {
    // It answers by lines at first, then far more than the budget, and refuses to be asked on and
    // on: the render stops once nothing is left to leave out, with the count it was given.
    const catalog = await createCatalog({ functions: FUNCTIONS.slice(0, 3) });
    let calls = 0;
    const drifting = (text: string) => {
      if (++calls > 50) throw new Error("asked 50 times");
      return calls <= 3 ? lines(text) : 1_000;
    };
    const rendered = await catalog.render({ budget: 3, countTokens: drifting });
    assert.deepEqual(rendered, {
      text: "(no entries)\n(3 more entries left out to fit the token budget)\n",
      tokens: 1_000,
      ids: [],
      omitted: 3,
    });
    assert.equal(calls, 4); // the whole listing, the floor, the first line, the result
  });
});

describe("tool ids in the listing", () => {
  let server: Awaited<ReturnType<typeof startToolServer>>;
  before(async () =>
    server = await startToolServer([{
      name: "echo",
      description: "Echoes back the text it is given",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "What to echo", title: "Text" } },
      },
    }])
  );
  after(() => server.close());

  test("shown whole when the id does not start with the server's name; a function's always", async () => {
    // A server name with a dot cannot be part of an id: the id reads `lab_tools__echo_<hash>`, and
    // the model must see it whole, not cut after as many characters as `lab.tools__` has.
    const client = await connect({ name: "lab.tools", url: server.url });
    try {
      const catalog = await createCatalog({
        clients: [client],
        functions: [fn("undefined__lookup", "Look a sample up")],
        approvals: approvals(),
      });
      const rendered = await catalog.render({ countTokens: chars });
      const tool = rendered.ids[0];
      assert.match(tool, /^lab_tools__echo_[0-9a-f]{8}$/);
      assert.equal(
        rendered.text,
        [
          "MCP tools by server (id: <server>__<tool>):",
          "lab.tools:",
          `${tool}: Echoes back the text it is given`,
          "Functions of this application:",
          "undefined__lookup: Look a sample up",
          "",
        ].join("\n"),
      );
    } finally {
      await client.close();
    }
  });

  test("a remote tool's definitions are plain objects a host can adjust (e.g. for strict mode)", async () => {
    const client = await connect({ name: "lab", url: server.url });
    try {
      const catalog = await createCatalog({ clients: [client], approvals: approvals() });
      const prompt = await assemblePrompt({
        request: "echo hello",
        selection: selection([], ["lab__echo"]),
        catalog,
      });
      try {
        const parameters = prompt.tools.openai[0].function.parameters as {
          properties: Record<string, Record<string, unknown>>;
        };
        const text = parameters.properties.text;
        assert.deepEqual({ ...text }, {
          type: "string",
          description: "What to echo",
          title: "Text",
        });
        // What OpenAI's strict mode asks: every property required, optional ones nullable.
        text.type = ["string", "null"];
        delete text.title;
        assert.deepEqual(prompt.tools.anthropic[0].input_schema.properties, {
          text: { type: ["string", "null"], description: "What to echo" },
        });
        // The catalog's own entry is not touched.
        assert.deepEqual(catalog.get("lab__echo")?.inputSchema?.properties, {
          text: { type: "string", description: "What to echo", title: "Text" },
        });
      } finally {
        await prompt.session.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe("the OpenAI adapter and the LLM calls' errors", () => {
  const MESSAGES = [{ role: "user" as const, content: "Pick a skill." }];
  let script: () => LlmAnswer | Promise<LlmAnswer> = () => openAiAnswer("{}");
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  before(async () => (fake = await startFakeLlm(() => script())));
  after(() => fake.close());
  const signal = () => AbortSignal.timeout(20_000);
  const model = () => createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });

  /** Rejects with an LlmError whose message is exactly `message`; resolves to that error. */
  async function refusal(promise: Promise<unknown>, message: string): Promise<LlmError> {
    let caught: unknown;
    await promise.catch((error) => (caught = error));
    assert.ok(isLlmError(caught), `an LlmError, not ${caught}`);
    assert.equal(caught.message, message);
    return caught;
  }

  test("a first choice without a message, or whose content is not text, is refused as openai's", async () => {
    const llm = model();
    for (
      const choice of [
        { index: 0, finish_reason: "length" },
        { index: 0, message: { role: "assistant", content: [{ type: "text", text: "hi" }] } },
        { index: 0, message: { role: "assistant", content: 42 } },
      ]
    ) {
      script = () => ({ body: JSON.stringify({ choices: [choice] }) });
      const error = await refusal(
        llm(MESSAGES, { signal: signal() }),
        "openai answered without choices[0].message.content",
      );
      assert.equal(error.provider, "openai");
      assert.equal(error.status, undefined);
    }
  });

  test("jsonMode: false sends no response_format; true, or the default, asks for a JSON object", async () => {
    script = () => openAiAnswer("plain text");
    fake.requests.length = 0;
    for (const jsonMode of [false, true, undefined]) {
      const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", jsonMode });
      assert.equal(await llm(MESSAGES, { signal: signal() }), "plain text");
    }
    assert.deepEqual(fake.requests.map((r) => r.body.response_format), [
      undefined,
      { type: "json_object" },
      { type: "json_object" },
    ]);
    assert.equal("response_format" in fake.requests[0].body, false);
  });

  test("an error given as a string (Ollama) or as a top-level message is the detail", async () => {
    const llm = model();
    script = () => ({
      status: 404,
      body: JSON.stringify({ error: 'model "m" not found, try pulling it first' }),
    });
    await refusal(
      llm(MESSAGES, { signal: signal() }),
      'openai answered HTTP 404: model "m" not found, try pulling it first',
    );
    script = () => ({ status: 400, body: JSON.stringify({ message: "context length exceeded" }) });
    await refusal(
      llm(MESSAGES, { signal: signal() }),
      "openai answered HTTP 400: context length exceeded",
    );
  });

  test("a provider's long error message is cut to 300 characters", async () => {
    const long = `${"The request was refused because ".repeat(10)}end`;
    assert.ok(long.length > 300);
    script = () => ({ status: 400, body: JSON.stringify({ error: { message: long } }) });
    const error = await refusal(
      model()(MESSAGES, { signal: signal() }),
      `openai answered HTTP 400: ${long.slice(0, 300)}`,
    );
    assert.equal(error.status, 400);
  });

  test("a server that refuses the connection is an LlmError of the provider, without a status", async () => {
    const base = await deadUrl("/v1");
    const llm = createOpenAiModel({ baseUrl: base, model: "m", retries: 0 });
    let caught: unknown;
    await llm(MESSAGES, { signal: signal() }).catch((error) => (caught = error));
    assert.ok(isLlmError(caught));
    assert.ok(caught.message.startsWith(`openai cannot be reached at ${new URL(base).origin}: `));
    assert.equal(caught.provider, "openai");
    assert.equal(caught.status, undefined);
  });

  test("a call the caller cancels rejects with the cancel's reason, not an LlmError", async () => {
    let release!: () => void;
    const late = new Promise<void>((done) => (release = done));
    let arrived!: () => void;
    const asked = new Promise<void>((done) => (arrived = done));
    script = () => (arrived(), late.then(() => openAiAnswer("late")));
    const controller = new AbortController();
    try {
      const call = model()(MESSAGES, { signal: controller.signal });
      await asked;
      const reason = new Error("the user closed the page");
      controller.abort(reason);
      let caught: unknown;
      await call.catch((error) => (caught = error));
      assert.equal(caught, reason);
    } finally {
      release();
    }
  });
});
