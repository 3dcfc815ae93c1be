// Private: the request lifecycle both HTTP transports share — closed check,
// circuit breaker, one deadline per request (caller signal + timeout + close),
// the URL check at connect time, retries with backoff for idempotent requests,
// and turning whatever went wrong into a typed, redacted error.

import { isTimeoutError, onAbort, raceSignal, scopedSignal } from "../../_abort.ts";
import { McpError, NetworkError, TimeoutError } from "../protocol/errors.ts";
import { checkConnectTarget, type PreparedServer } from "../policy/prepare.ts";
import type { HttpTransportOptions } from "./http_options.ts";
import type { ServerRequestHandler, TransportRequestOptions } from "./interface.ts";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/types.ts";
import { CircuitBreaker, outcomeOf } from "./_breaker.ts";
import { type HttpContext, scrub } from "./_http.ts";
import { sanitizeCause } from "../policy/_redact_message.ts";
import { isRetryable, retryDelay, sleep } from "./_retry.ts";
import { Router } from "./_router.ts";
import { httpUrlOf } from "./_lazy.ts";

/** The transport's fallback when a caller passes no `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The resolved limits. */
export interface Settings {
  maxResponseBytes: number;
  retries: number;
  retryDelayMs: number;
  maxRetryAfterMs: number;
  stallTimeoutMs: number | undefined;
}

/** The shared half of a transport; subclasses add the wire format. */
export abstract class HttpTransportBase {
  /** Server-to-client notifications other than progress. */
  onNotification?: (message: JsonRpcNotification) => void;
  /** Server-to-client requests other than `ping`. */
  onRequest?: ServerRequestHandler;
  protected readonly ctx: HttpContext;
  protected readonly settings: Settings;
  protected readonly url: URL;
  protected readonly router: Router;
  protected readonly closing: AbortController = new AbortController();
  readonly #breaker: CircuitBreaker;
  #target: Promise<void> | undefined;

  constructor(server: PreparedServer, options: HttpTransportOptions) {
    this.url = httpUrlOf(server);
    const write = options.log;
    const name = server.name;
    this.ctx = {
      server,
      name,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      log: (line) => write?.(scrub(this.ctx, line)),
    };
    this.settings = {
      maxResponseBytes: options.maxResponseBytes ?? 4 * 1024 * 1024,
      retries: Math.max(0, options.retries ?? 2),
      retryDelayMs: options.retryDelayMs ?? 300,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
      stallTimeoutMs: options.stallTimeoutMs ?? 30_000,
    };
    this.#breaker = new CircuitBreaker(
      options.circuitThreshold ?? 5,
      options.circuitCooldownMs ?? 30_000,
    );
    this.router = new Router({
      name,
      log: this.ctx.log,
      notification: () => this.onNotification,
      requests: () => this.onRequest,
      reply: (response) => this.reply(response),
    });
  }

  /** Post a response to a server-to-client request. */
  protected abstract reply(response: JsonRpcResponse): void;

  /** Send a notification. */
  abstract notify(message: JsonRpcNotification, options?: TransportRequestOptions): Promise<void>;

  /**
   * Until the returned function is called: when `signal` aborts (the caller gave up, or its
   * timer ran out), tell the server with `notifications/cancelled` naming the request id, so it
   * can stop the work (fire and forget; never for `initialize`, which may not be cancelled).
   * `reached` says whether the server may have the request now: not while a retry waits out its
   * backoff after a refused attempt, when there is nothing to cancel and nothing more is sent.
   */
  protected cancelOnAbort(
    message: JsonRpcRequest,
    signal: AbortSignal | undefined,
    reached: () => boolean = () => true,
  ): () => void {
    if (signal === undefined || signal.aborted || message.method === "initialize") return () => {};
    return onAbort(signal, () => {
      if (this.closed || !reached()) return;
      const reason = isTimeoutError(signal.reason) ? "timed out" : "aborted by the client";
      this.notify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: message.id, reason },
      }, { timeoutMs: 5_000 }).catch((error) =>
        this.ctx.log(
          `${this.ctx.name}: could not send notifications/cancelled (${(error as Error).name})`,
        )
      );
    });
  }

  /** Whether `close()` was called. */
  protected get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** Abort everything in flight. */
  protected abortAll(): void {
    if (!this.closed) {
      this.closing.abort(
        new NetworkError(`${this.ctx.name}: the transport was closed`, { server: this.ctx.name }),
      );
    }
  }

  /**
   * Run one request: `attempt` is called once, or up to `retries + 1` times
   * for an idempotent request failing with a retryable error, all within one
   * deadline. The `signal` passed to `attempt` aborts on timeout, caller abort
   * or close.
   */
  protected async run<T>(
    label: string,
    options: TransportRequestOptions,
    attempt: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { name } = this.ctx;
    if (this.closed) throw new NetworkError(`${name}: the transport is closed`, { server: name });
    const probe = this.#breaker.enter(name);
    const timeoutMs = options.longLived || options.watched
      ? Infinity
      : options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const scope = scopedSignal([options.signal, this.closing.signal], timeoutMs);
    let failure: unknown;
    try {
      await raceSignal(this.checkTarget(), scope.signal);
      for (let retry = 1;; retry++) {
        try {
          return await attempt(scope.signal);
        } catch (error) {
          const retries = options.longLived ? 0 : this.settings.retries;
          if (scope.signal.aborted || !options.idempotent || retry > retries) {
            throw error;
          }
          if (!isRetryable(error)) throw error;
          const delay = retryDelay(
            error,
            retry,
            this.settings.retryDelayMs,
            this.settings.maxRetryAfterMs,
          );
          if (Date.now() + delay >= deadline) throw error;
          this.ctx.log(
            `${name}: ${label} failed (${(error as Error).name}); retry ${retry} in ${
              Math.round(delay)
            } ms`,
          );
          await sleep(delay, scope.signal);
        }
      }
    } catch (error) {
      failure = this.#classify(error, options.signal, scope.signal, label, timeoutMs);
      throw failure;
    } finally {
      scope.dispose();
      const aborted = options.signal?.aborted === true || this.closed;
      this.#breaker.settle(outcomeOf(failure, aborted), probe);
    }
  }

  /** The connect-time URL check (strict mode: DNS), once per transport until it fails. */
  protected checkTarget(): Promise<void> {
    this.#target ??= checkConnectTarget(this.url, this.ctx.server.urlPolicy, {
      server: this.ctx.name,
    }).catch((error) => {
      this.#target = undefined;
      throw error;
    });
    return this.#target;
  }

  #classify(
    error: unknown,
    caller: AbortSignal | undefined,
    scope: AbortSignal,
    label: string,
    ms: number,
  ): unknown {
    const { name } = this.ctx;
    if (caller?.aborted) return caller.reason;
    if (this.closed) return this.closing.signal.reason;
    const timedOut = scope.aborted && isTimeoutError(scope.reason);
    if (timedOut && (!(error instanceof McpError) || error instanceof NetworkError)) {
      return new TimeoutError(`${name}: ${label} timed out after ${ms} ms`, { server: name });
    }
    if (error instanceof McpError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new McpError(`${name}: ${label} failed: ${scrub(this.ctx, message)}`, {
      server: name,
      cause: sanitizeCause(error, this.ctx.server.secrets),
    });
  }
}
