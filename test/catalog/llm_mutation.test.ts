// The LLM adapters' edges the first mutation run of `catalog` found untested (issue 19): an
// answer refused by its declared length, a timeout, a body that is not JSON, an error body too
// large to read, the default endpoints, and what each adapter takes of an answer. Against the
// local fake OpenAI/Anthropic server of _servers.ts; never the real APIs.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAnthropicModel, createOpenAiModel, type LlmError } from "../../lib/catalog/llm/llm.ts";
import { type LlmAnswer, openAiAnswer, startFakeLlm } from "./_servers.ts";

const MESSAGES = [{ role: "user" as const, content: "Pick a skill." }];
let script: (n: number) => LlmAnswer | Promise<LlmAnswer> = () => openAiAnswer("{}");
let fake: Awaited<ReturnType<typeof startFakeLlm>>;
before(async () => (fake = await startFakeLlm((_request, n) => script(n))));
after(() => fake.close());
const signal = () => AbortSignal.timeout(20_000);

/** Rejects with an LlmError whose message is exactly `message`; resolves to that error. */
async function refusal(promise: Promise<unknown>, message: string): Promise<LlmError> {
  let caught: unknown;
  await promise.catch((error) => (caught = error));
  assert.ok(caught instanceof Error, "rejected");
  assert.equal(caught.message, message);
  return caught as LlmError;
}

test("an answer declaring more bytes than allowed is refused before reading, with its size", async () => {
  const body = openAiAnswer("x".repeat(2_000)).body;
  script = () => ({ headers: { "content-length": String(body.length) }, body });
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", maxResponseBytes: 1_000 });
  const error = await refusal(
    llm(MESSAGES, { signal: signal() }),
    `openai: the answer is ${body.length} bytes, over the 1000 read`,
  );
  assert.equal(error.provider, "openai");
  assert.equal(error.status, 200);
  // At the limit exactly, it is read.
  const exact = createOpenAiModel({
    baseUrl: `${fake.url}/v1`,
    model: "m",
    maxResponseBytes: body.length,
  });
  assert.equal(await exact(MESSAGES, { signal: signal() }), "x".repeat(2_000));
});

test("a server slower than timeoutMs gives a timeout error naming the limit", async () => {
  // Answered only once the test is over, so that closing the server waits for nothing.
  let release!: () => void;
  const late = new Promise<void>((done) => (release = done));
  script = () => late.then(() => openAiAnswer("late"));
  const llm = createOpenAiModel({
    baseUrl: `${fake.url}/v1`,
    model: "m",
    timeoutMs: 200,
    retries: 0,
  });
  try {
    const error = await refusal(
      llm(MESSAGES, { signal: signal() }),
      "openai did not answer within 200 ms",
    );
    assert.equal(error.provider, "openai");
    assert.equal(error.status, undefined);
  } finally {
    release();
  }
});

test("a 200 whose body is not JSON is an error with the status, not a parse exception", async () => {
  script = () => ({ body: "<html>gateway</html>" });
  const anthropic = createAnthropicModel({ baseUrl: fake.url, model: "m" });
  const error = await refusal(
    anthropic(MESSAGES, { signal: signal() }),
    "anthropic answered with something that is not JSON",
  );
  assert.equal(error.provider, "anthropic");
  assert.equal(error.status, 200);
});

test("an HTTP error with no readable body names only provider and status", async () => {
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });
  script = () => ({ status: 400, body: "" });
  const empty = await refusal(llm(MESSAGES, { signal: signal() }), "openai answered HTTP 400");
  assert.equal(empty.status, 400);
  // An error body over the 64 KiB read is not read at all.
  const huge = "e".repeat(70 * 1024);
  script = () => ({ status: 400, headers: { "content-length": String(huge.length) }, body: huge });
  await refusal(llm(MESSAGES, { signal: signal() }), "openai answered HTTP 400");
  // A plain-text error body is the detail, whitespace collapsed.
  script = () => ({ status: 400, body: "bad\n\n  request" });
  await refusal(llm(MESSAGES, { signal: signal() }), "openai answered HTTP 400: bad request");
});

/** A fetch that records each URL asked for and sends the request to the fake server instead. */
function redirected(seen: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(url.href);
    const local = `${fake.url}${url.pathname}`;
    return fetch(input instanceof Request ? new Request(local, input) : local, init);
  };
}

test("without a base URL the adapters call the providers' own endpoints", async () => {
  const seen: string[] = [];
  script = () => openAiAnswer("hi");
  const openai = createOpenAiModel({ model: "m", fetch: redirected(seen) });
  assert.equal(await openai(MESSAGES, { signal: signal() }), "hi");
  script = () => ({ body: JSON.stringify({ content: [{ type: "text", text: "yo" }] }) });
  const anthropic = createAnthropicModel({ model: "m", fetch: redirected(seen) });
  assert.equal(await anthropic(MESSAGES, { signal: signal() }), "yo");
  assert.deepEqual(seen, [
    "https://api.openai.com/v1/chat/completions",
    "https://api.anthropic.com/v1/messages",
  ]);
});

test("Anthropic: only text blocks are joined, a text block without text adds nothing", async () => {
  script = () => ({
    body: JSON.stringify({
      content: [
        { type: "text", text: "a" },
        { type: "tool_use", id: "t", name: "x", input: {} },
        { type: "text" },
        { type: "text", text: "b" },
      ],
    }),
  });
  const anthropic = createAnthropicModel({ baseUrl: fake.url, model: "m" });
  assert.equal(await anthropic(MESSAGES, { signal: signal() }), "ab");
  script = () => ({ body: JSON.stringify({ type: "error", content: "nope" }) });
  const error = await refusal(
    anthropic(MESSAGES, { signal: signal() }),
    "anthropic answered without a content array",
  );
  assert.equal(error.provider, "anthropic");
});

test("OpenAI: a first choice whose content is null is the empty string", async () => {
  script = () => ({ body: JSON.stringify({ choices: [{ message: { content: null } }] }) });
  const openai = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m" });
  assert.equal(await openai(MESSAGES, { signal: signal() }), "");
});

test("Anthropic: trailing slashes of the base URL dropped; system messages joined, or none sent", async () => {
  script = () => ({ body: JSON.stringify({ content: [{ type: "text", text: "ok" }] }) });
  fake.requests.length = 0;
  const anthropic = createAnthropicModel({ baseUrl: `${fake.url}//`, model: "m" });
  await anthropic(
    [
      { role: "system", content: "one" },
      { role: "user", content: "hi" },
      { role: "system", content: "two" },
    ],
    { signal: signal() },
  );
  await anthropic(MESSAGES, { signal: signal() });
  assert.deepEqual(fake.requests.map((r) => r.path), ["/v1/messages", "/v1/messages"]);
  assert.equal(fake.requests[0].body.system, "one\n\ntwo");
  assert.deepEqual(fake.requests[0].body.messages, [{ role: "user", content: "hi" }]);
  assert.equal("system" in fake.requests[1].body, false);
});

test("Anthropic: blocks of other types are left out even with text; a text that is not a string is refused", async () => {
  script = () => ({
    body: JSON.stringify({
      content: [{ type: "thinking", text: "hmm" }, { type: "text", text: "answer" }],
    }),
  });
  const anthropic = createAnthropicModel({ baseUrl: fake.url, model: "m" });
  assert.equal(await anthropic(MESSAGES, { signal: signal() }), "answer");
  script = () => ({ body: JSON.stringify({ content: [{ type: "text", text: 5 }] }) });
  await refusal(
    anthropic(MESSAGES, { signal: signal() }),
    "anthropic answered without a content array",
  );
});

test("OpenAI: trailing slashes of the base URL dropped", async () => {
  script = () => openAiAnswer("ok");
  fake.requests.length = 0;
  const openai = createOpenAiModel({ baseUrl: `${fake.url}/v1//`, model: "m" });
  assert.equal(await openai(MESSAGES, { signal: signal() }), "ok");
  assert.equal(fake.requests[0].path, "/v1/chat/completions");
});
