// How the LLM adapters read an answer, where the fourth mutation run of `catalog` found it loosely
// held (issue 19): an answer that arrives in pieces is put together in order, one with no declared
// length is cut off while reading (with its status), answers without a body (204, 304, or a 204
// declaring a length over the limit) are errors naming the provider, not crashes, and without a
// key nothing is taken out of a provider's message. Against a plain HTTP server on 127.0.0.1 that
// answers as each test says; never the real APIs.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { createOpenAiModel, LlmError } from "../../lib/catalog/llm/llm.ts";
import { listenLocal } from "../mcp/_servers.ts";

const MESSAGES = [{ role: "user" as const, content: "Pick a skill." }];
const signal = () => AbortSignal.timeout(20_000);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** How the server answers the next requests (the request body is read first). */
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

/** Rejects with an LlmError whose message is exactly `message`; resolves to that error. */
async function refusal(promise: Promise<unknown>, message: string): Promise<LlmError> {
  let caught: unknown;
  await promise.catch((error) => (caught = error));
  assert.ok(caught instanceof LlmError, `an LlmError, not ${caught}`);
  assert.equal(caught.message, message);
  return caught;
}

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
