// The LLM adapters' HTTP exchange (lib/catalog/llm/_llm_http.ts): an answer read whole when it arrives
// in pieces, refused by its declared length or cut off once over maxResponseBytes (with its
// status), answers without a body or whose body is not JSON, error bodies (too large to read,
// plain text, a string, a top-level message, one too long), a timeout naming the limit, a refused
// connection, a cancel by the caller, and a key never taken out of a message it is not in.
// Against a plain HTTP server and the fake OpenAI/Anthropic server of _servers.ts, on 127.0.0.1;
// never the real APIs.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import {
  createAnthropicModel,
  createOpenAiModel,
  isLlmError,
} from "../../../lib/catalog/llm/llm.ts";
import { type LlmAnswer, openAiAnswer, startFakeLlm } from "../_servers.ts";
import { listenLocal } from "../../mcp/_servers.ts";
import { deadUrl } from "../../_closed_port.ts";
import { PICK as MESSAGES, refusal } from "../_llm.ts";

const signal = () => AbortSignal.timeout(20_000);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** How the fake model answers the next requests. */
let script: (n: number) => LlmAnswer | Promise<LlmAnswer> = () => openAiAnswer("{}");
let fake: Awaited<ReturnType<typeof startFakeLlm>>;
before(async () => (fake = await startFakeLlm((_request, n) => script(n))));
after(() => fake.close());
const model = () => createOpenAiModel({ baseUrl: `${fake.url}/v1`, model: "m", retries: 0 });

/** How the plain HTTP server answers the next requests (the request body is read first). */
let answer: (res: http.ServerResponse) => void | Promise<void> = (res) => void res.end("{}");
let server: Awaited<ReturnType<typeof listenLocal>>;
let url: string;
before(async () => {
  server = await listenLocal(http.createServer((req, res) => {
    req.resume();
    req.on("end", () => void answer(res));
  }));
  url = `http://127.0.0.1:${server.port}/v1`;
});
after(() => server.close());

const completion = (content: string) =>
  JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] });

test("an answer sent in pieces is read whole, in order", async () => {
  const text = completion(`${"a".repeat(3_000)} ${"b".repeat(3_000)} ${"c".repeat(3_000)}`);
  const third = Math.ceil(text.length / 3);
  answer = async (res) => {
    res.writeHead(200, { "content-type": "application/json" }); // chunked: no length declared
    for (let i = 0; i < 3; i++) {
      res.write(text.slice(i * third, (i + 1) * third));
      await sleep(30); // each piece its own read
    }
    res.end();
  };
  const llm = createOpenAiModel({ baseUrl: url, model: "m", retries: 0 });
  assert.equal(
    await llm(MESSAGES, { signal: signal() }),
    `${"a".repeat(3_000)} ${"b".repeat(3_000)} ${"c".repeat(3_000)}`,
  );
});

test("an answer with no declared length is cut off once over maxResponseBytes, with its status", async () => {
  answer = async (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    for (let i = 0; i < 4; i++) {
      if (!res.write("x".repeat(600))) break;
      await sleep(20);
    }
    res.end();
  };
  const llm = createOpenAiModel({
    baseUrl: url,
    model: "m",
    retries: 0,
    maxResponseBytes: 1_000,
  });
  const error = await refusal(
    llm(MESSAGES, { signal: signal() }),
    "openai: the answer is over the 1000 bytes read",
  );
  assert.equal(error.provider, "openai");
  assert.equal(error.status, 200);
});

test("answers without a body are errors naming the provider, not crashes", async () => {
  const llm = createOpenAiModel({
    baseUrl: url,
    model: "m",
    retries: 0,
    maxResponseBytes: 1_000,
  });
  // A success with no content is not JSON.
  answer = (res) => void res.writeHead(204).end();
  const empty = await refusal(
    llm(MESSAGES, { signal: signal() }),
    "openai answered with something that is not JSON",
  );
  assert.equal(empty.status, 204);
  // An error status with no body: provider and status, no detail.
  answer = (res) => void res.writeHead(304).end();
  const notModified = await refusal(
    llm(MESSAGES, { signal: signal() }),
    "openai answered HTTP 304",
  );
  assert.equal(notModified.status, 304);
  // No body, but a declared length over the limit: refused by its size.
  answer = (res) => void res.writeHead(204, { "content-length": "5000" }).end();
  const declared = await refusal(
    llm(MESSAGES, { signal: signal() }),
    "openai: the answer is 5000 bytes, over the 1000 read",
  );
  assert.equal(declared.status, 204);
});

test("without an API key, nothing is taken out of a provider's error message", async () => {
  answer = (res) =>
    void res.writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: "Stryker was here" } }));
  const llm = createOpenAiModel({ baseUrl: url, model: "m", retries: 0 });
  await refusal(llm(MESSAGES, { signal: signal() }), "openai answered HTTP 400: Stryker was here");
  // With a key, the key is what is taken out.
  answer = (res) =>
    void res.writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: "bad key sk-test-123456 was here" } }));
  const keyed = createOpenAiModel({
    baseUrl: url,
    model: "m",
    retries: 0,
    apiKey: "sk-test-123456",
  });
  await refusal(
    keyed(MESSAGES, { signal: signal() }),
    "openai answered HTTP 400: bad key [redacted] was here",
  );
});

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
