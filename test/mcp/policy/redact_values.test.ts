// Redaction of what a server sends, below the transports: text cut short by a read limit, JSON
// values (strings, keys, strings that hold JSON), JSON-RPC messages, error cause chains (a JSON
// SyntaxError quotes the server's text), and the stdio stderr tail (scrubbed before clipping).
import assert from "node:assert/strict";
import { test } from "node:test";
import { redact, REDACTED } from "../../../lib/mcp/policy/redact.ts";
import {
  redactMessage,
  redactValue,
  sanitizeCause,
} from "../../../lib/mcp/policy/_redact_message.ts";
import { LineTail } from "../../../lib/mcp/transport/_stdio_lines.ts";
import { API_KEY, assertNoLeak } from "../_leak.ts";

const KEY = API_KEY;

test("truncated text: a trailing fragment that begins a secret goes too", () => {
  assert.equal(redact(`key ${KEY.slice(0, 12)}`, [KEY], { truncated: true }), `key ${REDACTED}`);
  const uri = encodeURIComponent(KEY);
  assert.equal(redact(`q=${uri.slice(0, 14)}`, [KEY], { truncated: true }), `q=${REDACTED}`);
  assert.equal(redact("sent Bearer abc", [], { truncated: true }), `sent Bearer ${REDACTED}`);
  // Without `truncated`, or with nothing that begins a secret, the text stays.
  assert.equal(redact(`key ${KEY.slice(0, 12)}`, [KEY]), `key ${KEY.slice(0, 12)}`);
  assert.equal(redact("all fine", [KEY], { truncated: true }), "all fine");
  assert.equal(redact(`${KEY} end`, [KEY], { truncated: true }), `${REDACTED} end`);
});

test("JSON values: every string and key, strings holding JSON, deep values; shape kept", () => {
  const value = {
    message: `bad key ${KEY}`,
    list: [1, true, null, { deep: [KEY] }],
    [KEY]: "as a key",
    json: JSON.stringify({ key: KEY }),
    url: `https://x/?k=${encodeURIComponent(KEY)}`,
    n: 42,
  };
  const out = redactValue(value, [KEY]) as Record<string, unknown>;
  assertNoLeak(out, [KEY], "the value");
  assert.deepEqual(out, {
    message: `bad key ${REDACTED}`,
    list: [1, true, null, { deep: [REDACTED] }],
    [REDACTED]: "as a key",
    json: `{"key":"${REDACTED}"}`,
    url: `https://x/?k=${REDACTED}`,
    n: 42,
  });
  const proto = redactValue(JSON.parse(`{"__proto__": {"polluted": "${"x"}"}}`), [KEY]);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype, "a __proto__ key stays a key");
  assert.deepEqual(Object.keys(proto as object), ["__proto__"]);
  let deep: unknown = KEY;
  for (let i = 0; i < 200; i++) deep = [deep];
  assertNoLeak(redactValue(deep, [KEY]), [KEY], "a deep value");
});

test("JSON-RPC messages: error message and data, notification params; results untouched", () => {
  const error = redactMessage({
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32001, message: `invalid ${KEY}`, data: { key: KEY } },
  }, [KEY]);
  assert.deepEqual(error.error, {
    code: -32001,
    message: `invalid ${REDACTED}`,
    data: { key: REDACTED },
  });
  const note = redactMessage(
    { jsonrpc: "2.0", method: "notifications/message", params: { data: `saw ${KEY}` } },
    [KEY],
  );
  assert.deepEqual(note.params, { data: `saw ${REDACTED}` });
  const result = { jsonrpc: "2.0", id: 2, result: { text: KEY } };
  assert.equal(redactMessage(result, [KEY]), result, "a result is the server's content, kept");
  const request = { jsonrpc: "2.0", id: 3, method: "sampling/createMessage", params: { k: KEY } };
  assert.equal(redactMessage(request, [KEY]), request);
});

test("cause chains: messages, non-Error causes, a JSON SyntaxError's quoted source", () => {
  let syntax: unknown;
  try {
    JSON.parse(`${KEY} is not JSON`);
  } catch (error) {
    syntax = error;
  }
  const chain = new Error(`outer ${KEY}`, { cause: new Error("middle", { cause: syntax }) });
  const clean = sanitizeCause(chain, [KEY]) as Error;
  assertNoLeak(clean, [KEY], "the chain");
  assert.equal(clean.message, `outer ${REDACTED}`);
  assert.equal(((clean.cause as Error).cause as Error).name, "SyntaxError");
  assertNoLeak(sanitizeCause(new Error("x", { cause: `raw ${KEY}` }), [KEY]), [KEY], "a string");
  const plain = new Error("nothing secret");
  assert.equal(sanitizeCause(plain, [KEY]), plain, "an error without secrets is kept as is");
});

test("stderr tail: each line scrubbed whole before the 1,000-character clip", () => {
  const tail = new LineTail(10, (line) => redact(line, [KEY]));
  const encoder = new TextEncoder();
  tail.push(encoder.encode(`${"x".repeat(995)}${KEY}\nshort ${KEY}\n`));
  // Unterminated and over the 4 KiB kept of it: the cut at the front falls inside the key.
  tail.push(encoder.encode(`${"a".repeat(10)}${KEY}${"y".repeat(4080)}`));
  const lines = tail.lines();
  assert.equal(lines[1], `short ${REDACTED}`);
  assert.ok(lines[0].startsWith(`${"x".repeat(995)}${REDACTED.slice(0, 5)}`), lines[0]);
  assert.ok(
    !lines[2].includes(KEY.slice(8)),
    `the end of the key survived the cut: ${lines[2].slice(0, 40)}`,
  );
  assertNoLeak(lines, [KEY], "the tail");
});
