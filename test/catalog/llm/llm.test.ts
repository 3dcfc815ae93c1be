// The OpenAI-compatible and Anthropic adapters against local servers that speak those APIs:
// the request shapes the providers document (the default endpoints, base URLs, system messages,
// JSON mode), what each takes of an answer, retries honouring Retry-After, clear errors that never
// carry the key, LlmError and isLlmError, their refusals of a missing model, and selection through
// them. The HTTP exchange's own limits and failures are in llm_http.test.ts.
// Over 300 lines: one behaviour, the two adapters' requests and answers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createResolver,
  selectForRequest,
} from "../../../lib/mod.ts";
import {
  createAnthropicModel,
  createOpenAiModel,
  isLlmError,
  LlmError,
  type LlmErrorCode,
} from "../../../lib/catalog/llm/llm.ts";
import { anthropicAnswer, type LlmAnswer, openAiAnswer, startFakeLlm } from "../_servers.ts";
import { deadUrl } from "../../_closed_port.ts";
import { PICK, refusal } from "../_llm.ts";

const KEY = "sk-test-0123456789abcdef";
const MESSAGES = [
  { role: "system" as const, content: "Answer in JSON." },
  { role: "user" as const, content: "Pick a skill." },
];
let script: (n: number) => LlmAnswer | Promise<LlmAnswer> = () => openAiAnswer("{}");
let fake: Awaited<ReturnType<typeof startFakeLlm>>;
before(async () => (fake = await startFakeLlm((_request, n) => script(n))));
after(() => fake.close());
const signal = () => AbortSignal.timeout(20_000);

test("OpenAI: POST /v1/chat/completions with bearer key, model, messages and JSON mode", async () => {
  script = () => openAiAnswer('{"skills": []}');
  fake.requests.length = 0;
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1/`, apiKey: KEY, model: "gpt-test" });
  assert.equal(await llm(MESSAGES, { signal: signal() }), '{"skills": []}');
  const [request] = fake.requests;
  assert.equal(request.path, "/v1/chat/completions");
  assert.equal(request.headers.authorization, `Bearer ${KEY}`);
  assert.match(String(request.headers["content-type"]), /^application\/json/);
  assert.deepEqual(request.body, {
    model: "gpt-test",
    messages: MESSAGES,
    temperature: 0,
    max_tokens: 1024,
    response_format: { type: "json_object" },
  });
});

test("Anthropic: POST /v1/messages with x-api-key, version, system apart and max_tokens", async () => {
  script = () => anthropicAnswer('{"tools": []}');
  fake.requests.length = 0;
  const llm = createAnthropicModel({ baseUrl: fake.url, apiKey: KEY, model: "claude-test" });
  assert.equal(await llm(MESSAGES, { signal: signal() }), '{"tools": []}');
  const [request] = fake.requests;
  assert.equal(request.path, "/v1/messages");
  assert.equal(request.headers["x-api-key"], KEY);
  assert.equal(request.headers["anthropic-version"], "2023-06-01");
  assert.equal(request.headers.authorization, undefined);
  assert.deepEqual(request.body, {
    model: "claude-test",
    max_tokens: 1024,
    temperature: 0,
    system: "Answer in JSON.",
    messages: [{ role: "user", content: "Pick a skill." }],
  });
});

test("429 with Retry-After is retried after the delay, then succeeds", async () => {
  script = (n) =>
    n === 1
      ? { status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"slow down"}}' }
      : openAiAnswer("ok");
  fake.requests.length = 0;
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m" });
  const start = performance.now();
  assert.equal(await llm(MESSAGES, { signal: signal() }), "ok");
  assert.equal(fake.requests.length, 2);
  assert.ok(performance.now() - start >= 900, "waited for Retry-After");
});

test("a 5xx is retried, then reported naming provider and status, never the key", async () => {
  script = () => ({
    status: 503,
    body: JSON.stringify({ error: { message: `overloaded for key ${KEY}` } }),
  });
  fake.requests.length = 0;
  const llm = createAnthropicModel({ baseUrl: fake.url, apiKey: KEY, model: "m", retries: 1 });
  const error = await llm(MESSAGES, { signal: signal() }).then(
    () => assert.fail("expected an error"),
    (e: LlmError) => e,
  );
  assert.ok(isLlmError(error));
  assert.equal(error.provider, "anthropic");
  assert.equal(error.status, 503);
  assert.match(error.message, /^anthropic answered HTTP 503: overloaded for key \[redacted\]$/);
  assert.doesNotMatch(JSON.stringify({ ...error, message: error.message }), new RegExp(KEY));
  assert.equal(fake.requests.length, 2);
});

test("a 401 is not retried; a refused port, an oversized or malformed answer give clear errors", async () => {
  script = () => ({ status: 401, body: '{"error":{"message":"invalid api key"}}' });
  fake.requests.length = 0;
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, apiKey: KEY, model: "m" });
  await assert.rejects(
    llm(MESSAGES, { signal: signal() }),
    /openai answered HTTP 401: invalid api key/,
  );
  assert.equal(fake.requests.length, 1);
  const deadBase = await deadUrl("/v1");
  const dead = createOpenAiModel({ baseUrl: deadBase, model: "m", retries: 0 });
  await assert.rejects(
    dead(MESSAGES, { signal: signal() }),
    (error: Error) =>
      error.message.includes(`openai cannot be reached at ${new URL(deadBase).origin}`),
  );
  script = () => openAiAnswer("x".repeat(2_000));
  const small = createOpenAiModel({
    baseUrl: `${fake.url}/v1`,
    model: "m",
    maxResponseBytes: 1_000,
  });
  await assert.rejects(small(MESSAGES, { signal: signal() }), /over the 1000 bytes read/);
  script = () => ({ body: '{"choices": []}' });
  await assert.rejects(
    llm(MESSAGES, { signal: signal() }),
    /without choices\[0\]\.message\.content/,
  );
});

test("selection through the adapters, and their failures falling back to keywords", async () => {
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
  });
  script = () =>
    openAiAnswer('{"complexity":"simple","skills":["bwa"],"tools":[],"reasoning":"map"}');
  const openai = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m" });
  const viaOpenAi = await selectForRequest(catalog, "map reads", { llm: openai });
  assert.equal(viaOpenAi.via, "llm");
  assert.deepEqual(viaOpenAi.skills, ["bwa"]);

  script = () => anthropicAnswer('```json\n{"skills":["fastqc"],"tools":[]}\n```');
  const anthropic = createAnthropicModel({ baseUrl: fake.url, model: "m" });
  assert.deepEqual((await selectForRequest(catalog, "check quality", { llm: anthropic })).skills, [
    "fastqc",
  ]);

  script = () => ({ status: 500, body: "{}" });
  const failing = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });
  const fallback = await selectForRequest(catalog, "sort and index a BAM", { llm: failing });
  assert.equal(fallback.via, "keyword");
  assert.equal(fallback.fallback?.reason, "error");
  assert.match(fallback.fallback!.message, /openai answered HTTP 500/);
  assert.equal(fallback.skills[0], "samtools");

  script = () => openAiAnswer("not json at all");
  const garbage = await selectForRequest(catalog, "sort and index a BAM", { llm: openai });
  assert.equal(garbage.fallback?.reason, "unusable");
});

test("adapters refuse a missing model or a bad base URL", () => {
  assert.throws(() => createOpenAiModel({ model: "" }), /"model" must be a non-empty string/);
  assert.throws(() => createAnthropicModel({ model: "m", baseUrl: "nope" }), /absolute URL/);
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
  assert.equal(await openai(PICK, { signal: signal() }), "hi");
  script = () => ({ body: JSON.stringify({ content: [{ type: "text", text: "yo" }] }) });
  const anthropic = createAnthropicModel({ model: "m", fetch: redirected(seen) });
  assert.equal(await anthropic(PICK, { signal: signal() }), "yo");
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
  assert.equal(await anthropic(PICK, { signal: signal() }), "ab");
  script = () => ({ body: JSON.stringify({ type: "error", content: "nope" }) });
  const error = await refusal(
    anthropic(PICK, { signal: signal() }),
    "anthropic answered without a content array",
  );
  assert.equal(error.provider, "anthropic");
});

test("OpenAI: a first choice whose content is null is the empty string", async () => {
  script = () => ({ body: JSON.stringify({ choices: [{ message: { content: null } }] }) });
  const openai = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m" });
  assert.equal(await openai(PICK, { signal: signal() }), "");
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
  await anthropic(PICK, { signal: signal() });
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
  assert.equal(await anthropic(PICK, { signal: signal() }), "answer");
  script = () => ({ body: JSON.stringify({ content: [{ type: "text", text: 5 }] }) });
  await refusal(
    anthropic(PICK, { signal: signal() }),
    "anthropic answered without a content array",
  );
});

test("OpenAI: trailing slashes of the base URL dropped", async () => {
  script = () => openAiAnswer("ok");
  fake.requests.length = 0;
  const openai = createOpenAiModel({ baseUrl: `${fake.url}/v1//`, model: "m" });
  assert.equal(await openai(PICK, { signal: signal() }), "ok");
  assert.equal(fake.requests[0].path, "/v1/chat/completions");
});

test("a first choice without a message, or whose content is not text, is refused as openai's", async () => {
  const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });
  for (
    const choice of [
      { index: 0, finish_reason: "length" },
      { index: 0, message: { role: "assistant", content: [{ type: "text", text: "hi" }] } },
      { index: 0, message: { role: "assistant", content: 42 } },
    ]
  ) {
    script = () => ({ body: JSON.stringify({ choices: [choice] }) });
    const error = await refusal(
      llm(PICK, { signal: signal() }),
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
    assert.equal(await llm(PICK, { signal: signal() }), "plain text");
  }
  assert.deepEqual(fake.requests.map((r) => r.body.response_format), [
    undefined,
    { type: "json_object" },
    { type: "json_object" },
  ]);
  assert.equal("response_format" in fake.requests[0].body, false);
});

test("the adapters refuse a missing or non-string model, naming themselves", () => {
  const refused = (make: () => unknown, message: string) =>
    assert.throws(make, (error: Error) => error instanceof TypeError && error.message === message);
  for (const options of [undefined, {}, { model: 5 }, { model: "" }]) {
    refused(
      () => createOpenAiModel(options as never),
      'createOpenAiModel: "model" must be a non-empty string',
    );
    refused(
      () => createAnthropicModel(options as never),
      'createAnthropicModel: "model" must be a non-empty string',
    );
  }
});

test("LlmError keeps its cause; isLlmError takes only LlmErrors, not a caller's cancel", async () => {
  const cause = new Error("socket hang up");
  const error = new LlmError("openai cannot be reached", {
    code: "network",
    provider: "openai",
    cause,
  });
  assert.equal(error.cause, cause);
  assert.equal(isLlmError(error), true);
  assert.equal(isLlmError(new Error("plain")), false);
  assert.equal(isLlmError(new TypeError("bad")), false);
  assert.equal(isLlmError({ name: "LlmError", message: "not an Error" }), false);
  // A call its caller cancels rejects with the caller's reason, which is no LlmError.
  let release!: () => void;
  const late = new Promise<void>((done) => (release = done));
  const fake = await startFakeLlm(() => late.then(() => ({ body: "{}" })));
  try {
    const llm = createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });
    const controller = new AbortController();
    const call = llm([{ role: "user", content: "hi" }], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the user gave up")), 50);
    const caught = await call.then(() => undefined, (e: unknown) => e);
    assert.ok(caught instanceof Error && caught.message === "the user gave up", String(caught));
    assert.equal(isLlmError(caught), false);
  } finally {
    release();
    await fake.close();
  }
});

test("every failure is an LlmError whose code says why", async () => {
  const failure = (llm: ReturnType<typeof createOpenAiModel>) =>
    llm(MESSAGES, { signal: signal() }).then(() => assert.fail("expected an error"), (e) => e);
  const base = `${fake.url}/v1`;
  const cases: Array<[string, () => Promise<unknown>, LlmErrorCode]> = [
    ["an error status", () => {
      script = () => ({ status: 400, body: '{"error":{"message":"bad"}}' });
      return failure(createOpenAiModel({ baseUrl: base, model: "m", retries: 0 }));
    }, "http"],
    ["a refused port", async () => {
      return failure(createOpenAiModel({ baseUrl: await deadUrl("/v1"), model: "m", retries: 0 }));
    }, "network"],
    ["no answer in time", () => {
      script = () =>
        new Promise<LlmAnswer>((done) => setTimeout(() => done(openAiAnswer("late")), 1_500));
      return failure(createOpenAiModel({ baseUrl: base, model: "m", retries: 0, timeoutMs: 200 }));
    }, "timeout"],
    ["an answer over the cap", () => {
      script = () => openAiAnswer("x".repeat(2_000));
      return failure(createOpenAiModel({ baseUrl: base, model: "m", maxResponseBytes: 1_000 }));
    }, "too-large"],
    ["an answer that is not JSON", () => {
      script = () => ({ body: "<html>" });
      return failure(createOpenAiModel({ baseUrl: base, model: "m" }));
    }, "invalid-response"],
    ["JSON of the wrong shape", () => {
      script = () => ({ body: '{"choices": []}' });
      return failure(createOpenAiModel({ baseUrl: base, model: "m" }));
    }, "invalid-response"],
  ];
  for (const [what, run, code] of cases) {
    const error = await run();
    assert.ok(error instanceof LlmError, `${what}: ${error}`);
    assert.deepEqual([error.name, error.code, error.provider], ["LlmError", code, "openai"], what);
  }
  const cause = new Error("socket hang up");
  const built = new LlmError("x", { code: "network", provider: "openai", cause });
  assert.equal(built.cause, cause);
  assert.equal(
    Object.hasOwn(new LlmError("x", { code: "http", provider: "openai" }), "cause"),
    false,
  );
});
