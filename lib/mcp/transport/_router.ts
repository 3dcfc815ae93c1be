// Private: route what a server sends besides our responses — progress to the
// request that asked for it, other notifications to `onNotification`, and
// server-to-client requests to a reply (`ping` → `{}`, the rest to the host's handler, -32601
// without one).

import type { ServerRequestHandler, TransportRequestOptions } from "./interface.ts";
import type {
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Progress,
} from "../protocol/types.ts";
import type { IncomingMessage } from "./_jsonrpc.ts";

/** The response to a server request: `ping` → `{}`, else the handler's result or error. */
export async function serveRequest(
  request: JsonRpcRequest,
  handler: ServerRequestHandler | undefined,
): Promise<JsonRpcResponse> {
  const { id, method } = request;
  if (method === "ping") return { jsonrpc: "2.0", id, result: {} };
  if (handler === undefined) {
    return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
  try {
    return { jsonrpc: "2.0", id, result: await handler(request) };
  } catch (error) {
    // Our RpcError carries its number as `rpcCode`; a handler's own error (the SDK's McpError) as `code`.
    const { rpcCode, code: own } = (error ?? {}) as { rpcCode?: unknown; code?: unknown };
    const number = typeof rpcCode === "number" ? rpcCode : own;
    const code = typeof number === "number" ? number : -32603;
    const message = code === -32601 ? `Method not found: ${method}` : (error as Error)?.message;
    return { jsonrpc: "2.0", id, error: { code, message: String(message ?? "Internal error") } };
  }
}

/** What the router needs from its transport. */
export interface RouterHost {
  name: string;
  log(line: string): void;
  /** The transport's current `onNotification`. */
  notification(): ((message: JsonRpcNotification) => void) | undefined;
  /** The transport's current `onRequest`. */
  requests(): ServerRequestHandler | undefined;
  /** Send a response to a server-to-client request (fire and forget). */
  reply(response: JsonRpcResponse): void;
}

/** The router of one transport. */
export class Router {
  readonly #host: RouterHost;
  readonly #progress = new Map<string, (progress: Progress) => void>();

  constructor(host: RouterHost) {
    this.#host = host;
  }

  /**
   * Give `message` a progress token when the caller wants progress and none is
   * set (the request id), and route progress with that token to the caller
   * until the returned function is called.
   */
  track(
    message: JsonRpcRequest,
    options: TransportRequestOptions,
  ): { message: JsonRpcRequest; done(): void } {
    const onProgress = options.onProgress;
    if (!onProgress) return { message, done() {} };
    const params = message.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const token = meta.progressToken ?? message.id;
    const key = `${typeof token}:${String(token)}`;
    const tagged = meta.progressToken === undefined
      ? { ...message, params: { ...params, _meta: { ...meta, progressToken: token } } }
      : message;
    this.#progress.set(key, onProgress);
    return { message: tagged, done: () => this.#progress.delete(key) };
  }

  /** Handle an incoming request or notification (responses are the transport's). */
  handle(incoming: IncomingMessage): void {
    const { name, log } = this.#host;
    if (incoming.kind === "request") {
      log(`${name}: answering server request "${incoming.message.method}"`);
      serveRequest(incoming.message, this.#host.requests()).then((response) =>
        this.#host.reply(response)
      );
      return;
    }
    if (incoming.kind !== "notification") return;
    const message = incoming.message;
    try {
      if (message.method === "notifications/progress") {
        const params = message.params ?? {};
        const token = params.progressToken;
        const callback = this.#progress.get(`${typeof token}:${String(token)}`);
        if (callback && typeof params.progress === "number") {
          callback({
            progress: params.progress,
            ...(typeof params.total === "number" ? { total: params.total } : {}),
            ...(typeof params.message === "string" ? { message: params.message } : {}),
          });
        }
        return;
      }
      this.#host.notification()?.(message);
    } catch (error) {
      log(
        `${name}: a notification handler threw: ${error instanceof Error ? error.name : "error"}`,
      );
    }
  }
}
