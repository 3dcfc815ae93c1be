// Private: the stdio transport itself (stdio.ts is its public face): requests matched to answers
// by id, the start-up allowance (requests sent while the child starts wait under it, and their own
// timeouts start when it writes its first line), failures, and the spec's shutdown on close.
// Long because: one class whose state (the child, the requests waiting for an answer, the start-up
// allowance, the shutdown) every method reads and changes.

import { onAbort } from "../../_abort.ts";
import { NetworkError, TimeoutError } from "../protocol/errors.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import { redact } from "../policy/redact.ts";
import type { ServerRequestHandler, TransportRequestOptions } from "./interface.ts";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../protocol/types.ts";
import { LineTail } from "./_stdio_lines.ts";
import { startupError, stopChild, type StopWaits } from "./_stdio_process.ts";
import { spawnChild, type SpawnedChild } from "./_stdio_child.ts";
import { dispatchLine, isRequest, type Pending } from "./_stdio_dispatch.ts";
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_KILL_TIMEOUT_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  type StdioStartupEvent,
  type StdioTransport,
  type StdioTransportOptions,
} from "./stdio_options.ts";

type State = "idle" | "running" | "failed" | "closed";

/** The stdio transport (see `createStdioTransport` in stdio.ts). */
export class StdioTransportImpl implements StdioTransport {
  readonly kind = "stdio" as const;
  readonly sessionId: string | undefined = undefined;
  onNotification?: (message: JsonRpcNotification) => void;
  onRequest?: ServerRequestHandler;

  readonly #server: PreparedServer;
  readonly #options: StdioTransportOptions;
  readonly #label: string;
  readonly #stderr: LineTail;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #progress = new Map<string | number, Pending>();
  /** Timers to arm once the child has started: requests sent while it was starting. */
  readonly #armLater = new Map<JsonRpcId, () => void>();
  #state: State = "idle";
  #failure?: Error;
  #child?: SpawnedChild;
  #started = false;
  #spawnedAt = 0;
  #startupTimer?: ReturnType<typeof setTimeout>;
  #closing?: Promise<void>;
  /** Answers owed to server requests, by request id (see `#finish`). */
  readonly #owed = new Map<JsonRpcId, { owed: Promise<void>; paid: () => void }>();
  #draining = false;
  /** While closing: called when the server sends a request after its stdin closed. */
  #asked?: () => void;

  constructor(server: PreparedServer, options: StdioTransportOptions) {
    this.#server = server;
    this.#options = options;
    this.#label = `stdio server ${JSON.stringify(server.name)}`;
    this.#stderr = new LineTail(
      options.stderrLines ?? 50,
      (line) => redact(line, server.secrets),
      (line) => {
        if (!this.#started) this.#report({ type: "stderr", server: server.name, line });
      },
    );
  }

  get pid(): number | undefined {
    return this.#child?.child.pid;
  }

  get started(): boolean {
    return this.#started;
  }

  stderrTail(): string[] {
    return this.#stderr.lines();
  }

  setProtocolVersion(_version: string): void {}

  resetSession(): void {}

  request(
    message: JsonRpcRequest,
    options: TransportRequestOptions = {},
  ): Promise<JsonRpcResponse> {
    const unavailable = this.#unavailable();
    if (unavailable) return Promise.reject(unavailable);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (this.#pending.has(message.id)) {
      return Promise.reject(
        new TypeError(`request id ${JSON.stringify(message.id)} is already in flight`),
      );
    }
    let outgoing = message;
    let token: string | number | undefined;
    if (options.onProgress) {
      const meta = (message.params?._meta ?? {}) as Record<string, unknown>;
      const given = meta.progressToken;
      token = typeof given === "string" || typeof given === "number" ? given : message.id;
      if (given === undefined) {
        outgoing = {
          ...message,
          params: { ...message.params, _meta: { ...meta, progressToken: token } },
        };
      }
    }
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const pending: Pending = {
        method: message.method,
        resolve,
        reject,
        onProgress: options.onProgress,
      };
      const settle = () => {
        this.#pending.delete(message.id);
        this.#armLater.delete(message.id);
        this.#updateRef();
        if (token !== undefined) this.#progress.delete(token);
        if (pending.timer !== undefined) clearTimeout(pending.timer);
        pending.unsubscribe?.();
      };
      pending.settle = settle;
      this.#pending.set(message.id, pending);
      this.#updateRef();
      if (token !== undefined) this.#progress.set(token, pending);
      const { timeoutMs, signal } = options;
      const timed = !options.watched && timeoutMs !== undefined;
      if (timed && Number.isFinite(timeoutMs) && timeoutMs >= 0) {
        const arm = () => (pending.timer = setTimeout(() => {
          settle();
          const silent = `${message.method} got no answer within ${timeoutMs} ms`;
          reject(new TimeoutError(`${this.#label}: ${silent}`, { server: this.#server.name }));
          // A probe's silence is an answer (an older server ignoring a newer method).
          if (options.probe) return;
          this.#fail(
            new NetworkError(
              `${this.#label} was stopped: ${silent}, so the server is considered wedged; ` +
                "connect again",
              { server: this.#server.name },
            ),
          );
        }, timeoutMs));
        // The request's own timeout counts once the server has started (see startupTimeoutMs).
        if (this.#started) arm();
        else this.#armLater.set(message.id, arm);
      }
      if (signal) {
        pending.unsubscribe = onAbort(signal, () => {
          settle();
          reject(signal.reason);
          this.#write({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: message.id, reason: "aborted by the client" },
          });
        });
      }
      this.#write(outgoing);
    });
  }

  notify(message: JsonRpcNotification, _options?: TransportRequestOptions): Promise<void> {
    const unavailable = this.#unavailable();
    if (unavailable) return Promise.reject(unavailable);
    this.#write(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    const wasRunning = this.#state === "running";
    this.#state = "closed";
    this.#clearStartup();
    const closed = new NetworkError(`${this.#label} was closed`, { server: this.#server.name });
    if (wasRunning && !this.#started) {
      this.#report({ type: "failed", server: this.#server.name, error: closed });
    }
    this.#rejectAll(closed);
    this.#closing = wasRunning ? this.#finish() : this.#exited();
    this.#updateRef();
    return this.#closing;
  }

  /**
   * Close as the spec says, once the answers to the server's own requests that are still being
   * made (a `roots/list` a server sends right after initialisation) have been written: a server
   * left waiting for one would not exit when its stdin closes. The wait counts against
   * `closeTimeoutMs`. A server that sends a request once its stdin is closed waits for an answer
   * that cannot come (server-everything asks for roots 350 ms after initialisation): it gets
   * SIGTERM then, not after the whole wait.
   */
  async #finish(): Promise<void> {
    const { closeMs } = this.#waits();
    const began = Date.now();
    if (this.#owed.size > 0) {
      this.#draining = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...this.#owed.values()].map((o) => o.owed)),
        new Promise((resolve) => (timer = setTimeout(resolve, closeMs))),
      ]);
      clearTimeout(timer);
      this.#draining = false;
    }
    // What is left of the wait (at least 1 ms, which still closes stdin before SIGTERM), cut
    // short when the server asks a question after its stdin closed.
    const asked = new Promise<void>((resolve) => (this.#asked = resolve));
    await this.#stop(closeMs > 0 ? Math.max(1, closeMs - (Date.now() - began)) : 0, asked);
    this.#asked = undefined;
  }

  /** Why no message can be sent now, or `undefined` (starting the child on first use). */
  #unavailable(): Error | undefined {
    if (this.#state === "closed") {
      return new NetworkError(`${this.#label} is closed`, { server: this.#server.name });
    }
    if (this.#state === "idle") this.#start();
    return this.#state === "failed" ? this.#failure : undefined;
  }

  #start(): void {
    const server = this.#server;
    this.#state = "running";
    const spawned = spawnChild(server, this.#options, this.#label, this.#stderr, {
      lines: (lines) => {
        if (this.#state !== "running") {
          // Closing, stdin closed: a server that asks something now waits for an answer that
          // cannot come, so it will not exit by itself (see `#finish`).
          if (this.#asked !== undefined && lines.some(isRequest)) this.#asked();
          return;
        }
        if (!this.#started) this.#markStarted();
        for (const line of lines) this.#dispatch(line);
      },
      fail: (error) => this.#fail(error),
      diagnose: (text) => this.#diagnose(text),
    });
    if (spawned === undefined) return;
    this.#child = spawned;
    this.#spawnedAt = Date.now();
    const pid = spawned.child.pid;
    if (pid !== undefined) this.#report({ type: "spawned", server: server.name, pid });
    const allowance = server.startupTimeoutMs ?? this.#options.startupTimeoutMs ??
      DEFAULT_STARTUP_TIMEOUT_MS;
    this.#startupTimer = setTimeout(() => {
      this.#startupTimer = undefined;
      this.#fail(startupError(this.#label, server, this.stderrTail(), allowance));
    }, allowance);
    this.#updateRef();
  }

  #dispatch(line: string): void {
    dispatchLine(line, {
      pending: this.#pending,
      progress: this.#progress,
      label: this.#label,
      server: this.#server.name,
      reply: (message) => this.#reply(message),
      notify: (message) => this.onNotification?.(message),
      requests: this.#answer(),
      secrets: this.#server.secrets,
      diagnose: (text) => this.#diagnose(text),
    });
  }

  /** The first line arrived: the server runs; the waiting requests' own timeouts start now. */
  #markStarted(): void {
    this.#started = true;
    this.#clearStartup();
    const ms = Date.now() - this.#spawnedAt;
    this.#report({ type: "started", server: this.#server.name, pid: this.pid, ms });
    const waiting = [...this.#armLater.values()];
    this.#armLater.clear();
    for (const arm of waiting) arm();
  }

  #clearStartup(): void {
    if (this.#startupTimer !== undefined) clearTimeout(this.#startupTimer);
    this.#startupTimer = undefined;
  }

  #report(event: StdioStartupEvent): void {
    try {
      this.#options.onStartup?.(event);
    } catch { /* the host's callback is its own business */ }
  }

  /**
   * Hold the runtime open only while a request waits for its answer, so an idle
   * server never keeps a script or CLI from exiting (the child is killed when
   * the host process exits; see `trackChild`).
   */
  #updateRef(): void {
    if (this.#child === undefined) return;
    const { child, hasExited } = this.#child;
    // Busy while a request waits, and while close() waits for the child to exit.
    const busy = this.#pending.size > 0 || (this.#closing !== undefined && !hasExited());
    for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
      const refable = handle as { ref?: () => void; unref?: () => void } | null;
      try {
        if (busy) refable?.ref?.();
        else refable?.unref?.();
      } catch {
        // Deno throws for a child that never started; nothing to hold then.
      }
    }
    const timer = this.#startupTimer as { ref?: () => void; unref?: () => void } | undefined;
    if (busy) timer?.ref?.();
    else timer?.unref?.();
  }

  /** The host's handler for server requests, each answer owed until `#reply` writes it. */
  #answer(): ServerRequestHandler | undefined {
    const handler = this.onRequest;
    if (handler === undefined) return undefined;
    return (request) => {
      let paid!: () => void;
      const owed = new Promise<void>((resolve) => (paid = resolve));
      this.#owed.set(request.id, { owed, paid });
      return handler(request);
    };
  }

  #reply(message: JsonRpcResponse): void {
    this.#write(message);
    if (message.id === null) return;
    this.#owed.get(message.id)?.paid();
    this.#owed.delete(message.id);
  }

  #write(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): void {
    const stdin = this.#child?.child.stdin;
    // While closing, only the answers still owed to the server go out.
    const open = this.#state === "running" ||
      (this.#draining && "id" in message && !("method" in message));
    if (!open || !stdin || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  #diagnose(text: string): void {
    this.#options.onDiagnostic?.(redact(text, this.#server.secrets));
  }

  #rejectAll(error: Error): void {
    for (const pending of [...this.#pending.values()]) {
      pending.settle?.();
      pending.reject(error);
    }
  }

  /** Enter the failed state (once): reject everything in flight and stop the child at once. */
  #fail(error: Error): void {
    if (this.#state !== "running") return;
    this.#state = "failed";
    this.#failure = error;
    this.#clearStartup();
    if (!this.#started) this.#report({ type: "failed", server: this.#server.name, error });
    this.#rejectAll(error);
    void this.#stop(0);
  }

  #waits(): StopWaits {
    const server = this.#server;
    const options = this.#options;
    return {
      closeMs: server.closeTimeoutMs ?? options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      killMs: server.killTimeoutMs ?? options.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS,
    };
  }

  #exited(): Promise<void> {
    return this.#child?.exited ?? Promise.resolve();
  }

  /** Stop the child (see `stopChild`), SIGTERM after `closeMs`; resolves when it has exited. */
  #stop(closeMs: number, cut?: Promise<void>): Promise<void> {
    const spawned = this.#child;
    if (!spawned) return Promise.resolve();
    const { child, exited, hasExited } = spawned;
    return stopChild(child, exited, hasExited, { ...this.#waits(), closeMs }, cut);
  }
}
