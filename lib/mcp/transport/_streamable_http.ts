// Private: the Streamable HTTP transport (MCP 2025-03-26 and later) behind
// `createStreamableHttpTransport` (streamable_http.ts): one endpoint, every message a POST
// answered with JSON or an SSE stream, `Mcp-Session-Id` sessions, `MCP-Protocol-Version` after
// negotiation, resumption with `Last-Event-ID`, and DELETE to end a session.

import { raceSignal, scopedSignal } from "../../_abort.ts";
import {
  NetworkError,
  ProtocolError,
  SessionExpiredError,
  StreamEndedError,
} from "../protocol/errors.ts";
import { parseMessages } from "./_jsonrpc.ts";
import type { McpTransport, TransportRequestOptions } from "./interface.ts";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/types.ts";
import { HttpTransportBase } from "./_base.ts";
import { buildHeaders, scrub, send, statusError } from "./_http.ts";
import { attachRetryAfter } from "./_retry.ts";
import { readAnswer } from "./_answer.ts";

const VISIBLE_ASCII = /^[\x21-\x7E]{1,1024}$/;

type Outgoing = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The Streamable HTTP transport; `createStreamableHttpTransport` builds it on the first request. */
export class StreamableHttpTransport extends HttpTransportBase implements McpTransport {
  readonly kind = "streamable-http" as const;
  #session: string | undefined;
  #version: string | undefined;
  #closed: Promise<void> | undefined;

  get sessionId(): string | undefined {
    return this.#session;
  }

  request(
    message: JsonRpcRequest,
    options: TransportRequestOptions = {},
  ): Promise<JsonRpcResponse> {
    const tracked = this.router.track(message, options);
    let posting = false;
    const uncancel = this.cancelOnAbort(message, options.signal, () => posting);
    return this.run(message.method, options, async (signal) => {
      posting = true;
      const answer = await this.#post(tracked.message, signal, options).finally(() => {
        posting = false;
      });
      if (answer === undefined) {
        throw new ProtocolError(`${this.ctx.name}: no answer`, { server: this.ctx.name });
      }
      return answer;
    }).finally(() => {
      uncancel();
      tracked.done();
    });
  }

  async notify(message: JsonRpcNotification, options: TransportRequestOptions = {}): Promise<void> {
    await this.run(message.method, options, (signal) => this.#post(message, signal, options));
  }

  /**
   * Open the standalone GET event stream for server-initiated messages (2025 revisions) and
   * route what arrives until it ends. Resolves `unsupported` when the server offers none (405),
   * else `ended` with the server's `retry` hint; rejects with a typed error.
   */
  async listen(
    signal: AbortSignal,
    onOpen?: () => void,
  ): Promise<{ outcome: "unsupported" | "ended"; retryMs?: number }> {
    const { ctx } = this;
    if (this.closed) {
      throw new NetworkError(`${ctx.name}: the transport is closed`, { server: ctx.name });
    }
    const scope = scopedSignal([signal, this.closing.signal]);
    try {
      await raceSignal(this.checkTarget(), scope.signal);
      const headers = this.#headers({ Accept: "text/event-stream" });
      const response = await send(ctx, this.url, { method: "GET", headers }, scope.signal);
      if (response.status === 405) {
        response.body?.cancel().catch(() => {});
        return { outcome: "unsupported" };
      }
      if (!response.ok) {
        throw await statusError(ctx, response, this.#session !== undefined, scope.signal, {
          method: "GET",
          url: this.url,
        });
      }
      if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        response.body?.cancel().catch(() => {});
        return { outcome: "unsupported" };
      }
      let retryMs: number | undefined;
      const { readEvents } = await import("./_events.ts");
      onOpen?.();
      await readEvents(response.body, {
        server: ctx.name,
        maxBytes: this.settings.maxResponseBytes,
        signal: scope.signal,
        capMode: "event",
        onRetry: (ms) => (retryMs = ms),
        onEvent: (event) => {
          if ((event.event !== undefined && event.event !== "message") || !event.data.trim()) {
            return;
          }
          for (const item of parseMessages(event.data, ctx.name, ctx.server.secrets)) {
            if (item.kind !== "response") this.router.handle(item);
          }
        },
      });
      return { outcome: "ended", retryMs };
    } finally {
      scope.dispose();
    }
  }

  setProtocolVersion(version: string): void {
    this.#version = version;
  }

  resetSession(): void {
    this.#session = undefined;
    this.#version = undefined;
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  protected reply(response: JsonRpcResponse): void {
    if (this.closed) return;
    this.run("reply", { timeoutMs: 10_000 }, (signal) => this.#post(response, signal, {})).catch((
      error,
    ) =>
      this.ctx.log(`${this.ctx.name}: could not answer a server request (${(error as Error).name})`)
    );
  }

  #headers(extra: Record<string, string | undefined>): Headers {
    return buildHeaders(this.ctx, {
      "Mcp-Session-Id": this.#session,
      "MCP-Protocol-Version": this.#version,
      ...extra,
    });
  }

  /** One attempt: POST `message`; for a request, read its answer (JSON or SSE). */
  async #post(
    message: Outgoing,
    signal: AbortSignal,
    options: TransportRequestOptions,
  ): Promise<JsonRpcResponse | undefined> {
    const { ctx } = this;
    const attempt = new AbortController();
    const scope = scopedSignal([signal, attempt.signal]);
    try {
      const sent = this.#session;
      const headers = this.#headers({
        ...options.headers,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      });
      const response = await send(ctx, this.url, {
        method: "POST",
        headers,
        body: JSON.stringify(message),
      }, scope.signal);
      if (!response.ok) {
        const error = await statusError(ctx, response, sent !== undefined, scope.signal, {
          method: "POST",
          url: this.url,
        });
        attachRetryAfter(error, response);
        if (error instanceof SessionExpiredError && this.#session === sent) {
          this.#session = undefined;
        }
        throw error;
      }
      const request = "method" in message && "id" in message ? message : undefined;
      if (request?.method === "initialize") this.#capture(response);
      if (request === undefined) {
        response.body?.cancel().catch(() => {});
        return undefined;
      }
      return await readAnswer({
        ctx,
        settings: this.settings,
        router: this.router,
        request,
        response,
        signal: scope.signal,
        longLived: options.longLived,
        watched: options.watched,
        resume: (lastEventId) => this.#resume(request.method, lastEventId, scope.signal),
      });
    } finally {
      attempt.abort();
      scope.dispose();
    }
  }

  #capture(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    if (!VISIBLE_ASCII.test(id)) {
      response.body?.cancel().catch(() => {});
      throw new ProtocolError(
        `${this.ctx.name}: the server sent an invalid Mcp-Session-Id (it must be 1–1024 visible ASCII characters)`,
        { server: this.ctx.name },
      );
    }
    this.#session = id;
  }

  /** Reopen an interrupted answer stream with GET + `Last-Event-ID`, after the server's `retry`. */
  async #resume(
    method: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    const { ctx } = this;
    const headers = this.#headers({ Accept: "text/event-stream", "Last-Event-ID": lastEventId });
    ctx.log(`${ctx.name}: the event stream for ${method} ended early; resuming with Last-Event-ID`);
    const response = await send(ctx, this.url, { method: "GET", headers }, signal);
    const type = response.headers.get("content-type") ?? "";
    if (response.ok && type.includes("text/event-stream") && response.body !== null) {
      return response.body;
    }
    const cause = response.ok
      ? undefined
      : await statusError(ctx, response, this.#session !== undefined, signal, {
        method: "GET",
        url: this.url,
      });
    if (cause instanceof SessionExpiredError) throw cause;
    response.body?.cancel().catch(() => {});
    throw new StreamEndedError(
      `${ctx.name}: the event stream for ${method} ended before its response and could not be resumed (HTTP ${response.status})`,
      { server: ctx.name, cause },
    );
  }

  async #shutdown(): Promise<void> {
    const { ctx } = this;
    this.abortAll();
    if (this.#session === undefined) return;
    const scope = scopedSignal([], 2_000);
    try {
      const response = await send(
        ctx,
        this.url,
        { method: "DELETE", headers: this.#headers({}) },
        scope.signal,
      );
      response.body?.cancel().catch(() => {});
      if (!response.ok && response.status !== 404 && response.status !== 405) {
        ctx.log(`${ctx.name}: ending the session answered HTTP ${response.status}`);
      }
    } catch (error) {
      ctx.log(
        `${ctx.name}: could not end the session: ${scrub(ctx, (error as Error).message ?? "")}`,
      );
    } finally {
      scope.dispose();
      this.#session = undefined;
    }
  }
}
