// Private: JSON-RPC 2.0 message schemas and the decoder every transport uses.
//
// Incoming values are classified as a request (server → client), a
// notification or a response. Anything else, from any JSON value at all, is a
// `ProtocolError`, never a `TypeError`. A JSON array of messages (batching,
// allowed by 2025-03-26 only) is accepted on input; skillmux never sends one.

import { ProtocolError } from "../protocol/errors.ts";
import { redactMessage, sanitizeCause } from "../policy/_redact_message.ts";
import { isObject as isPlainObject, problem, type Shape } from "../protocol/_shape.ts";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../protocol/types.ts";

/** One classified incoming message. */
export type IncomingMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

const isId = (id: unknown): id is JsonRpcId =>
  typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

const NOTIFICATION: Shape = { method: "s", params: "o?" };
const SUCCESS: Shape = { result: "o" };

function check<T>(value: Record<string, unknown>, what: string, server?: string): T {
  const prefix = server ? `${server}: ` : "";
  let found = value.jsonrpc === "2.0" ? undefined : '"jsonrpc" should be "2.0"';
  if (!found && what !== "notification" && what !== "error response" && !isId(value.id)) {
    found = '"id" should be a string or a finite number';
  }
  if (!found && what === "error response" && value.id !== null && !isId(value.id)) {
    found = '"id" should be a string, a finite number or null';
  }
  if (!found && (what === "request" || what === "notification")) {
    found = problem(value, NOTIFICATION) ??
      (value.method === "" ? '"method" should be a non-empty string' : undefined);
  }
  if (!found && what === "response") found = problem(value, SUCCESS);
  if (!found && what === "error response") {
    const error = value.error;
    found = !isPlainObject(error)
      ? '"error" should be an object'
      : !Number.isInteger(error.code)
      ? '"error.code" should be an integer'
      : typeof error.message !== "string"
      ? '"error.message" should be a string'
      : undefined;
  }
  if (found) throw new ProtocolError(`${prefix}invalid JSON-RPC ${what}: ${found}`, { server });
  return value as T;
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
      return { kind: "request", message: check<JsonRpcRequest>(value, "request", server) };
    }
    return {
      kind: "notification",
      message: check<JsonRpcNotification>(value, "notification", server),
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
    return { kind: "response", message: check<JsonRpcResponse>(value, "response", server) };
  }
  if (hasError) {
    return {
      kind: "response",
      message: check<JsonRpcResponse>(value, "error response", server),
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

/**
 * Parse JSON text from a server and classify it; invalid JSON is a `ProtocolError`. This is where
 * every message of the HTTP transports enters: `secrets` are redacted from what may reach an error
 * or a log (error responses, notifications; see `redactMessage`) and from the parse error's cause.
 */
export function parseMessages(
  text: string,
  server?: string,
  secrets: readonly string[] = [],
): IncomingMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(`${server ? `${server}: ` : ""}the server sent invalid JSON`, {
      server,
      cause: sanitizeCause(cause, secrets),
    });
  }
  return decodeMessages(value, server).map((item) =>
    ({ ...item, message: redactMessage(item.message, secrets) }) as IncomingMessage
  );
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
