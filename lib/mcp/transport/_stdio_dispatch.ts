// Private: route one stdout line of a stdio server: responses to their pending
// request, progress to its callback, server requests answered, the rest reported.

import { ProtocolError } from "../protocol/errors.ts";
import { redact } from "../policy/redact.ts";
import { redactMessage } from "../policy/_redact_message.ts";
import { serveRequest } from "./_router.ts";
import type { ServerRequestHandler } from "./interface.ts";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Progress,
} from "../protocol/types.ts";

/** A request waiting for its response. */
export interface Pending {
  method: string;
  resolve(response: JsonRpcResponse): void;
  reject(error: unknown): void;
  onProgress?: (progress: Progress) => void;
  timer?: ReturnType<typeof setTimeout>;
  unsubscribe?: () => void;
  /** Forget the request (timers, listeners, maps); call before resolving or rejecting. */
  settle?: () => void;
}

/** What {@linkcode dispatchLine} needs from the transport. */
export interface DispatchContext {
  pending: Map<JsonRpcId, Pending>;
  progress: Map<string | number, Pending>;
  label: string;
  server: string;
  reply(message: JsonRpcResponse): void;
  notify(message: JsonRpcNotification): void;
  /** The host's handler for server requests, if any. */
  requests?: ServerRequestHandler;
  /** Redacted from every message's error and notification text, and from diagnostics. */
  secrets: readonly string[];
  diagnose(text: string): void;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Handle one line (a message or a batch); never throws. Every message is redacted (its error and
 * notification text, see `redactMessage`) before anything else sees it.
 */
export function dispatchLine(line: string, ctx: DispatchContext): void {
  const text = line.trim();
  if (text === "") return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const shown = clip(redact(text, ctx.secrets));
    ctx.diagnose(`${ctx.label}: ignored a stdout line that is not JSON: ${shown}`);
    return;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    dispatchMessage(redactMessage(message, ctx.secrets), ctx);
  }
}

function guard(ctx: DispatchContext, what: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    ctx.diagnose(`${ctx.label}: the ${what} callback threw: ${(error as Error)?.message ?? error}`);
  }
}

function dispatchMessage(message: unknown, ctx: DispatchContext): void {
  if (!isObject(message) || message.jsonrpc !== "2.0") {
    ctx.diagnose(`${ctx.label}: ignored a message that is not JSON-RPC 2.0`);
    return;
  }
  const id = message.id;
  const hasId = typeof id === "string" || typeof id === "number";
  if (typeof message.method === "string") {
    if (hasId) {
      const request = message as unknown as JsonRpcRequest;
      serveRequest(request, ctx.requests).then((response) => ctx.reply(response));
    } else if (message.method === "notifications/progress") {
      const params = isObject(message.params) ? message.params : {};
      const token = params.progressToken;
      const target = typeof token === "string" || typeof token === "number"
        ? ctx.progress.get(token)
        : undefined;
      if (target?.onProgress && typeof params.progress === "number") {
        const progress: Progress = { progress: params.progress };
        if (typeof params.total === "number") progress.total = params.total;
        if (typeof params.message === "string") progress.message = params.message;
        guard(ctx, "onProgress", () => target.onProgress!(progress));
      }
    } else {
      guard(ctx, "onNotification", () => ctx.notify(message as unknown as JsonRpcNotification));
    }
    return;
  }
  if (!hasId) {
    const error = isObject(message.error) && typeof message.error.message === "string"
      ? `: ${clip(message.error.message)}`
      : "";
    ctx.diagnose(`${ctx.label}: ignored a response without an id${error}`);
    return;
  }
  const pending = ctx.pending.get(id);
  if (pending === undefined) {
    ctx.diagnose(`${ctx.label}: ignored a response for unknown id ${JSON.stringify(id)}`);
    return;
  }
  pending.settle?.();
  const error = message.error;
  if (isObject(message.result)) {
    pending.resolve(message as unknown as JsonRpcResponse);
  } else if (
    isObject(error) && typeof error.code === "number" && typeof error.message === "string"
  ) {
    pending.resolve(message as unknown as JsonRpcResponse);
  } else {
    pending.reject(
      new ProtocolError(
        `${ctx.label}: the response to ${pending.method} has neither a result object nor a valid error`,
        { server: ctx.server },
      ),
    );
  }
}

/** Whether a stdout line is a JSON-RPC request (a method and an id). */
export function isRequest(line: string): boolean {
  try {
    const message = JSON.parse(line) as { method?: unknown; id?: unknown };
    return typeof message?.method === "string" &&
      (typeof message.id === "string" || typeof message.id === "number");
  } catch {
    return false;
  }
}
