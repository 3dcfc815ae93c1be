// Private: the legacy HTTP+SSE transport (MCP 2024-11-05) behind `createLegacySseTransport`
// (legacy_sse.ts): a long-lived GET event stream whose first `endpoint` event names the URL to
// POST messages to; responses come back on the stream as `message` events, matched by id.
// Loaded only when a server needs it.

import { raceSignal, scopedSignal } from "../../_abort.ts";
import {
  PolicyError,
  ProtocolError,
  ResponseTooLargeError,
  StreamEndedError,
  TimeoutError,
} from "../protocol/errors.ts";
import type { McpTransport, TransportRequestOptions } from "./interface.ts";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/types.ts";
import { DEFAULT_TIMEOUT_MS, HttpTransportBase } from "./_base.ts";
import { buildHeaders, scrub, send, statusError } from "./_http.ts";
import { idKey, parseMessages } from "./_jsonrpc.ts";
import { attachRetryAfter } from "./_retry.ts";
import { readEvents } from "./_events.ts";

interface Connection {
  abort: AbortController;
  ready: Promise<URL>;
  endpoint?: URL;
  ended: boolean;
}

interface Pending {
  connection: Connection;
  method: string;
  resolve(response: JsonRpcResponse): void;
  reject(error: unknown): void;
}

/** The legacy transport; `createLegacySseTransport` builds it on the first request. */
export class LegacySseTransport extends HttpTransportBase implements McpTransport {
  readonly kind = "sse" as const;
  #connection: Connection | undefined;
  #pending = new Map<string, Pending>();
  #version: string | undefined;

  get sessionId(): string | undefined {
    const endpoint = this.#connection?.ended ? undefined : this.#connection?.endpoint;
    return endpoint?.searchParams.get("sessionId") ?? undefined;
  }

  request(
    message: JsonRpcRequest,
    options: TransportRequestOptions = {},
  ): Promise<JsonRpcResponse> {
    const key = idKey(message.id);
    if (this.#pending.has(key)) {
      return Promise.reject(
        new TypeError(`Request id ${JSON.stringify(message.id)} is already in flight`),
      );
    }
    const tracked = this.router.track(message, options);
    const uncancel = this.cancelOnAbort(message, options.signal);
    return this.run(message.method, options, async (signal) => {
      const connection = this.#connect(message.method, connectTimeout(options));
      const endpoint = await raceSignal(connection.ready, signal);
      const answer = new Promise<JsonRpcResponse>((resolve, reject) => {
        this.#pending.set(key, { connection, method: message.method, resolve, reject });
      });
      answer.catch(() => {});
      try {
        await this.#post(endpoint, tracked.message, signal);
        return await raceSignal(answer, signal);
      } finally {
        this.#pending.delete(key);
      }
    }).finally(() => {
      uncancel();
      tracked.done();
    });
  }

  async notify(message: JsonRpcNotification, options: TransportRequestOptions = {}): Promise<void> {
    await this.run(message.method, options, async (signal) => {
      const connection = this.#connect(message.method, connectTimeout(options));
      await this.#post(await raceSignal(connection.ready, signal), message, signal);
    });
  }

  setProtocolVersion(version: string): void {
    this.#version = version;
  }

  resetSession(): void {
    this.#connection?.abort.abort(new StreamEndedError(`${this.ctx.name}: the session was reset`));
    this.#connection = undefined;
    this.#version = undefined;
  }

  close(): Promise<void> {
    this.abortAll();
    this.#connection = undefined;
    return Promise.resolve();
  }

  protected reply(response: JsonRpcResponse): void {
    const endpoint = this.#connection?.endpoint;
    if (this.closed || endpoint === undefined) return;
    this.run("reply", { timeoutMs: 10_000 }, (signal) => this.#post(endpoint, response, signal))
      .catch((error) =>
        this.ctx.log(
          `${this.ctx.name}: could not answer a server request (${(error as Error).name})`,
        )
      );
  }

  async #post(endpoint: URL, message: unknown, signal: AbortSignal): Promise<void> {
    const headers = buildHeaders(this.ctx, {
      "Content-Type": "application/json",
      "MCP-Protocol-Version": this.#version,
    });
    const response = await send(this.ctx, endpoint, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
    }, signal);
    if (!response.ok) {
      const error = await statusError(this.ctx, response, true, signal, {
        method: "POST",
        url: endpoint,
      });
      attachRetryAfter(error, response);
      throw error;
    }
    response.body?.cancel().catch(() => {});
  }

  /** The live connection, opening one if needed. A dead one means a lost session, except for `initialize`. */
  #connect(method: string, timeoutMs: number): Connection {
    const current = this.#connection;
    if (current !== undefined && !current.ended) return current;
    if (current?.endpoint !== undefined && method !== "initialize") {
      throw new StreamEndedError(
        `${this.ctx.name}: the event stream ended, so the session is gone; initialise again`,
        { server: this.ctx.name },
      );
    }
    const connection = this.#open(timeoutMs);
    this.#connection = connection;
    return connection;
  }

  #open(timeoutMs: number): Connection {
    const { ctx, url } = this;
    const { name } = ctx;
    const abort = new AbortController();
    let announce!: (endpoint: URL) => void;
    let refuse!: (error: unknown) => void;
    const ready = new Promise<URL>((resolve, reject) => {
      announce = resolve;
      refuse = reject;
    });
    ready.catch(() => {});
    const connection: Connection = { abort, ready, ended: false };
    const scope = scopedSignal([this.closing.signal, abort.signal]);
    const timer = setTimeout(
      () =>
        abort.abort(
          new TimeoutError(`${name}: no endpoint event within ${timeoutMs} ms`, { server: name }),
        ),
      timeoutMs,
    );
    const onEvent = (event: { event?: string; data: string }): void => {
      if (event.event === "endpoint") {
        if (connection.endpoint !== undefined) {
          return ctx.log(`${name}: ignored a second endpoint event`);
        }
        let endpoint: URL;
        try {
          endpoint = new URL(event.data.trim(), url);
        } catch {
          throw new ProtocolError(`${name}: the endpoint event does not hold a URL`, {
            server: name,
          });
        }
        if (endpoint.origin !== url.origin) {
          throw new PolicyError(
            `${name}: refused a message endpoint on another origin (${
              scrub(ctx, endpoint.origin)
            })`,
            {
              server: name,
              field: "url",
            },
          );
        }
        clearTimeout(timer);
        connection.endpoint = endpoint;
        announce(endpoint);
        return;
      }
      if ((event.event !== undefined && event.event !== "message") || event.data.trim() === "") {
        return;
      }
      this.#receive(event.data);
    };
    (async () => {
      try {
        const headers = buildHeaders(ctx, {
          Accept: "text/event-stream",
          "MCP-Protocol-Version": this.#version,
        });
        const response = await send(ctx, url, { method: "GET", headers }, scope.signal);
        if (!response.ok) {
          throw await statusError(ctx, response, false, scope.signal, { method: "GET", url });
        }
        if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
          response.body?.cancel().catch(() => {});
          throw new ProtocolError(
            `${name}: the SSE endpoint did not answer with text/event-stream`,
            { server: name },
          );
        }
        const { maxResponseBytes: maxBytes } = this.settings;
        await readEvents(response.body, {
          server: name,
          maxBytes,
          signal: scope.signal,
          capMode: "event",
          onEvent,
        });
        throw new StreamEndedError(`${name}: the event stream ended`, { server: name });
      } catch (error) {
        this.#end(connection, scope.signal.aborted ? scope.signal.reason : error, refuse);
      } finally {
        clearTimeout(timer);
        scope.dispose();
      }
    })();
    return connection;
  }

  #receive(data: string): void {
    const { name, log } = this.ctx;
    let incoming;
    try {
      incoming = parseMessages(data, name, this.ctx.server.secrets);
    } catch (error) {
      return log(`${name}: ignored an invalid message (${(error as Error).message})`);
    }
    for (const item of incoming) {
      if (item.kind !== "response") {
        this.router.handle(item);
        continue;
      }
      const id = item.message.id;
      const pending = id === null ? undefined : this.#pending.get(idKey(id));
      if (pending === undefined) {
        log(`${name}: ignored a response with an unknown or repeated id`);
        continue;
      }
      this.#pending.delete(idKey(id as string | number));
      pending.resolve(item.message);
    }
  }

  /** The stream is gone: fail the endpoint wait and every request waiting on this connection. */
  #end(connection: Connection, reason: unknown, refuse: (error: unknown) => void): void {
    connection.ended = true;
    refuse(reason);
    for (const [key, pending] of this.#pending) {
      if (pending.connection !== connection) continue;
      this.#pending.delete(key);
      const kept = reason instanceof ResponseTooLargeError || reason instanceof ProtocolError ||
        reason instanceof PolicyError;
      pending.reject(
        kept ? reason : new StreamEndedError(
          `${this.ctx.name}: the event stream ended before the response to ${pending.method}`,
          { server: this.ctx.name, cause: reason instanceof StreamEndedError ? undefined : reason },
        ),
      );
    }
  }
}

/** How long to wait for the endpoint event: the request's timeout, else the default. */
function connectTimeout(options: TransportRequestOptions): number {
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return options.watched || !Number.isFinite(ms) ? DEFAULT_TIMEOUT_MS : ms;
}
