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
import { createOpenAiModel, isLlmError, type LlmError } from "../../lib/catalog/llm.ts";
import { type LlmAnswer, openAiAnswer, startFakeLlm } from "./_servers.ts";
import { deadUrl } from "../_closed_port.ts";

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
