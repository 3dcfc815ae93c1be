// The JSON-RPC decoder: valid messages are classified, everything else is a
// ProtocolError (never a TypeError), batches are accepted on input.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import {
  createIdSequence,
  decodeMessage,
  decodeMessages,
  idKey,
  parseMessages,
} from "../../../lib/mcp/transport/_jsonrpc.ts";

test("requests, notifications, results and errors are classified", () => {
  assert.equal(decodeMessage({ jsonrpc: "2.0", id: 1, method: "ping" }).kind, "request");
  assert.equal(
    decodeMessage({ jsonrpc: "2.0", method: "notifications/progress", params: {} }).kind,
    "notification",
  );
  assert.equal(decodeMessage({ jsonrpc: "2.0", id: "a", result: { x: 1 } }).kind, "response");
  const error = decodeMessage({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32700, message: "Parse error" },
  });
  assert.equal(error.kind, "response");
});

test("unknown members are kept", () => {
  const decoded = decodeMessage({ jsonrpc: "2.0", id: 1, result: { tools: [] }, extra: true });
  assert.deepEqual(decoded.message, { jsonrpc: "2.0", id: 1, result: { tools: [] }, extra: true });
});

test("malformed messages are ProtocolErrors with a useful message", () => {
  const bad: unknown[] = [
    null,
    42,
    "x",
    [],
    { jsonrpc: "1.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: null, method: "ping" },
    { jsonrpc: "2.0", id: {}, result: {} },
    { jsonrpc: "2.0", id: 1, result: [] },
    { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } },
    { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } },
    { jsonrpc: "2.0", id: 1, method: "" },
    { jsonrpc: "2.0", id: 1, method: "x", params: [1] },
    { jsonrpc: "2.0" },
  ];
  for (const value of bad) {
    assert.throws(() => decodeMessages(value, "srv"), (error: unknown) => {
      assert.ok(isMcpError(error, "ProtocolError"), `${JSON.stringify(value)} → ${String(error)}`);
      assert.match((error as Error).message, /^srv: /);
      return true;
    });
  }
});

test("a batch is decoded message by message; invalid JSON is a ProtocolError", () => {
  const batch = parseMessages(
    '[{"jsonrpc":"2.0","method":"notifications/message","params":{}},{"jsonrpc":"2.0","id":2,"result":{}}]',
  );
  assert.deepEqual(batch.map((m) => m.kind), ["notification", "response"]);
  assert.throws(() => parseMessages("{not json"), (e: unknown) => isMcpError(e, "ProtocolError"));
  assert.throws(() => parseMessages(""), (e: unknown) => isMcpError(e, "ProtocolError"));
});

test('ids: 1 and "1" are different keys; sequences are monotonic', () => {
  assert.notEqual(idKey(1), idKey("1"));
  const next = createIdSequence();
  assert.deepEqual([next(), next(), next()], [1, 2, 3]);
});

const valid = fc.oneof(
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.oneof(fc.integer(), fc.string()),
    method: fc.string({ minLength: 1 }),
  }),
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.string({ minLength: 1 }) }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.integer(),
    result: fc.dictionary(fc.string(), fc.jsonValue()),
  }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.oneof(fc.integer(), fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: fc.string() }),
  }),
);

function decodesOrProtocolError(value: unknown): boolean {
  try {
    for (const message of decodeMessages(value)) {
      assert.ok(["request", "notification", "response"].includes(message.kind));
    }
    return true;
  } catch (error) {
    return isMcpError(error, "ProtocolError");
  }
}

test("property: any JSON value, and mutated valid messages, decode or fail with ProtocolError", () => {
  const budget = { interruptAfterTimeLimit: 1_000, numRuns: Number.MAX_SAFE_INTEGER };
  fc.assert(fc.property(fc.jsonValue(), decodesOrProtocolError), budget);
  fc.assert(
    fc.property(valid, fc.string(), fc.jsonValue(), fc.boolean(), (message, key, value, drop) => {
      const mutated: Record<string, unknown> = { ...message };
      if (drop) delete mutated[Object.keys(mutated)[0]];
      else mutated[key] = value;
      return decodesOrProtocolError(mutated) && decodesOrProtocolError([mutated, message]);
    }),
    budget,
  );
  fc.assert(fc.property(valid, (message) => decodeMessage(message) !== undefined), {
    numRuns: 200,
  });
});
