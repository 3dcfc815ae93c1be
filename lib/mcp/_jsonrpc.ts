// Private: JSON-RPC 2.0 message schemas and the decoder every transport uses.
//
// Incoming values are classified as a request (server → client), a
// notification or a response. Anything else, from any JSON value at all, is a
// `ProtocolError`, never a `TypeError`. A JSON array of messages (batching,
// allowed by 2025-03-26 only) is accepted on input; skillmux never sends one.

import * as v from "valibot";
import { ProtocolError } from "./errors.ts";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./types.ts";

/** One classified incoming message. */
export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ObjectSchema = v.custom<Record<string, unknown>>(isPlainObject, "an object");
const Version = v.literal("2.0");
const Method = v.pipe(v.string(), v.minLength(1));

/** A JSON-RPC id: a string or a finite number (never `null` on a request). */
export const JsonRpcIdSchema: v.GenericSchema<JsonRpcId> = v.union([
  v.string(),
  v.pipe(v.number(), v.finite()),
]);

/** A JSON-RPC request. Unknown members are kept. */
export const JsonRpcRequestSchema: v.GenericSchema<JsonRpcRequest> = v.looseObject({
  jsonrpc: Version,
  id: JsonRpcIdSchema,
  method: Method,
  params: v.optional(ObjectSchema),
});

/** A JSON-RPC notification (no `id`). */
export const JsonRpcNotificationSchema: v.GenericSchema<JsonRpcNotification> = v.looseObject({
  jsonrpc: Version,
  method: Method,
  params: v.optional(ObjectSchema),
});

/** A successful JSON-RPC response; MCP results are always objects. */
export const JsonRpcSuccessSchema: v.GenericSchema<JsonRpcResponse> = v.looseObject({
  jsonrpc: Version,
  id: JsonRpcIdSchema,
  result: ObjectSchema,
});

/** A JSON-RPC error response; `id` is `null` when the server could not read ours. */
export const JsonRpcErrorResponseSchema: v.GenericSchema<JsonRpcResponse> = v.looseObject({
  jsonrpc: Version,
  id: v.nullable(JsonRpcIdSchema),
  error: v.looseObject({
    code: v.pipe(v.number(), v.integer()),
    message: v.string(),
    data: v.optional(v.unknown()),
  }),
});

function check<T>(schema: v.GenericSchema<T>, value: unknown, what: string, server?: string): T {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((item) => String(item.key)).join(".") || "message";
  const expected = issue.expected ?? issue.kind;
  throw new ProtocolError(
    `${server ? `${server}: ` : ""}invalid JSON-RPC ${what}: "${path}" should be ${expected}`,
    { server },
  );
}

/**
 * Classify one decoded JSON value. Throws `ProtocolError` for anything that is
 * not a JSON-RPC 2.0 request, notification or response.
 */
export function decodeMessage(value: unknown, server?: string): IncomingMessage {
  if (!isPlainObject(value)) {
    throw new ProtocolError(`${server ? `${server}: ` : ""}expected a JSON-RPC message object`, {
      server,
    });
  }
  if ("method" in value) {
    if (value.id !== undefined) {
      return { kind: "request", message: check(JsonRpcRequestSchema, value, "request", server) };
    }
    return {
      kind: "notification",
      message: check(JsonRpcNotificationSchema, value, "notification", server),
    };
  }
  const hasResult = "result" in value;
  const hasError = "error" in value;
  if (hasResult && hasError) {
    throw new ProtocolError(
      `${server ? `${server}: ` : ""}invalid JSON-RPC response: both "result" and "error" are set`,
      { server },
    );
  }
  if (hasResult) {
    return { kind: "response", message: check(JsonRpcSuccessSchema, value, "response", server) };
  }
  if (hasError) {
    return {
      kind: "response",
      message: check(JsonRpcErrorResponseSchema, value, "error response", server),
    };
  }
  throw new ProtocolError(
    `${server ? `${server}: ` : ""}expected a JSON-RPC message: no "method", "result" or "error"`,
    { server },
  );
}

/** Classify a value that is one message or a non-empty batch (array) of them. */
export function decodeMessages(value: unknown, server?: string): IncomingMessage[] {
  if (!Array.isArray(value)) return [decodeMessage(value, server)];
  if (value.length === 0) {
    throw new ProtocolError(`${server ? `${server}: ` : ""}received an empty JSON-RPC batch`, {
      server,
    });
  }
  return value.map((item) => decodeMessage(item, server));
}

/** Parse JSON text and classify it; invalid JSON is a `ProtocolError`. */
export function parseMessages(text: string, server?: string): IncomingMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(`${server ? `${server}: ` : ""}the server sent invalid JSON`, {
      server,
      cause,
    });
  }
  return decodeMessages(value, server);
}

/** A key that keeps `1` and `"1"` apart, for maps of pending requests. */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

/**
 * A monotonic numeric id sequence, one per transport or client:
 * `const next = createIdSequence(); next() // 1, then 2, …`.
 */
export function createIdSequence(start = 1): () => number {
  let next = start;
  return () => next++;
}
