/**
 * The stdio transport (Deno, Node): start an MCP server as a child process and
 * speak newline-delimited JSON-RPC over its stdin and stdout.
 *
 * @module
 */

import type { ChildProcess } from "node:child_process";
import { onAbort } from "../../_abort.ts";
import { type NodeBuiltins, nodeBuiltins } from "../../_node.ts";
import { NetworkError, ProtocolError, TimeoutError } from "../protocol/errors.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import { redact } from "../policy/redact.ts";
import type { McpTransport, ServerRequestHandler, TransportRequestOptions } from "./interface.ts";
import type {
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from "../protocol/types.ts";
import { childEnv } from "./_stdio_env.ts";
import { LineSplitter, LineTail } from "./_stdio_lines.ts";
import { exitError, signalChild, spawnError } from "./_stdio_process.ts";
import { dispatchLine, type Pending } from "./_stdio_dispatch.ts";

export { MINIMAL_ENV } from "./_stdio_env.ts";

/** Children still running, killed when the host process exits (they may be unref'd). */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("close", () => liveChildren.delete(child));
  const host =
    (globalThis as { process?: { on?: (event: "exit", fn: () => void) => void } }).process;
  if (exitHookInstalled || typeof host?.on !== "function") return;
  exitHookInstalled = true;
  host.on("exit", () => {
    for (const running of liveChildren) {
      try {
        running.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/** Options of {@linkcode createStdioTransport}. */
export interface StdioTransportOptions {
  /** The longest stdout line accepted, in bytes; a longer one is a `ProtocolError` and kills the child. Default 4 MiB. */
  maxLineBytes?: number;
  /** How many stderr lines to keep for error messages. Default 50. */
  stderrLines?: number;
  /** On close or kill: SIGTERM first, SIGKILL after this many milliseconds. Default 2000. */
  killTimeoutMs?: number;
  /**
   * Which variables of this process's environment the child inherits, before
   * the server's `env` is added: `minimal` (default: `PATH`, `HOME`, `USER`,
   * locale, temp dir and their Windows equivalents, see `MINIMAL_ENV`, so API
   * keys in the parent environment do not leak to every server), `all`, or a
   * list of extra names to inherit on top of the minimal set.
   */
  inheritEnv?: "minimal" | "all" | readonly string[];
  /** Receives diagnostics: non-JSON stdout lines (banners), unknown response ids, and the like. Secrets are redacted. */
  onDiagnostic?: (message: string) => void;
}

/** A stdio transport, with the child's process id and stderr tail for diagnosis. */
export interface StdioTransport extends McpTransport {
  /** The child's process id, once started (`undefined` before the first message or when spawning failed). */
  readonly pid: number | undefined;
  /** The last lines the child wrote to stderr, secrets redacted. */
  stderrTail(): string[];
}

type State = "idle" | "running" | "failed" | "closed";

class StdioTransportImpl implements StdioTransport {
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
  #state: State = "idle";
  #failure?: Error;
  #child?: ChildProcess;
  #exited: Promise<void> = Promise.resolve();
  #hasExited = false;
  #closing?: Promise<void>;

  constructor(server: PreparedServer, options: StdioTransportOptions) {
    this.#server = server;
    this.#options = options;
    this.#label = `stdio server ${JSON.stringify(server.name)}`;
    this.#stderr = new LineTail(options.stderrLines ?? 50, (line) => redact(line, server.secrets));
  }

  get pid(): number | undefined {
    return this.#child?.pid;
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
        pending.timer = setTimeout(() => {
          settle();
          reject(
            new TimeoutError(
              `${this.#label}: ${message.method} got no answer within ${timeoutMs} ms`,
              {
                server: this.#server.name,
              },
            ),
          );
          this.#fail(
            new NetworkError(
              `${this.#label} was stopped: ${message.method} got no answer within ${timeoutMs} ms, ` +
                "so the server is considered wedged; connect again",
              { server: this.#server.name },
            ),
          );
        }, timeoutMs);
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
    this.#rejectAll(new NetworkError(`${this.#label} was closed`, { server: this.#server.name }));
    this.#closing = wasRunning ? this.#terminate() : this.#exited;
    this.#updateRef();
    return this.#closing;
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
    let node: NodeBuiltins;
    try {
      node = nodeBuiltins("The stdio transport");
    } catch (error) {
      this.#fail(
        new NetworkError(
          `Cannot start ${this.#label}: stdio needs Deno 2 or Node >= 20.16 (child processes are unavailable here)`,
          { server: server.name, cause: error },
        ),
      );
      return;
    }
    let child: ChildProcess;
    try {
      child = node.childProcess.spawn(server.command!, server.args, {
        cwd: server.cwd,
        env: childEnv(node.env, this.#options.inheritEnv ?? "minimal", server.env),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      this.#fail(this.#spawnError(error));
      return;
    }
    this.#child = child;
    let exitTimer: ReturnType<typeof setTimeout> | undefined;
    this.#exited = new Promise<void>((resolve) => {
      const done = () => {
        this.#hasExited = true;
        if (exitTimer !== undefined) clearTimeout(exitTimer);
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve();
      };
      child.once("close", (code: number | null, signal: string | null) => {
        this.#fail(this.#exitError(code, signal));
        done();
      });
      child.once("exit", (code: number | null, signal: string | null) => {
        this.#hasExited = true;
        // Wait briefly for the last stderr bytes ("close"), unless a grandchild holds the pipes.
        exitTimer = setTimeout(() => {
          this.#fail(this.#exitError(code, signal));
          done();
        }, 200);
      });
      child.once("error", (error: Error) => {
        if (child.pid !== undefined) return this.#diagnose(`${this.#label}: ${error.message}`);
        this.#fail(this.#spawnError(error));
        done();
      });
    });
    const lines = new LineSplitter(this.#options.maxLineBytes ?? 4 * 1024 * 1024);
    child.stdout!.on("data", (chunk: Uint8Array) => {
      if (this.#state !== "running") return;
      const got = lines.push(chunk);
      if (got === undefined) {
        const limit = this.#options.maxLineBytes ?? 4 * 1024 * 1024;
        return this.#fail(
          new ProtocolError(`${this.#label} wrote a line longer than ${limit} bytes to stdout`, {
            server: server.name,
          }),
        );
      }
      for (const line of got) {
        dispatchLine(line, {
          pending: this.#pending,
          progress: this.#progress,
          label: this.#label,
          server: server.name,
          reply: (message) => this.#write(message),
          notify: (message) => this.onNotification?.(message),
          requests: this.onRequest,
          secrets: server.secrets,
          diagnose: (text) => this.#diagnose(text),
        });
      }
    });
    child.stderr!.on("data", (chunk: Uint8Array) => this.#stderr.push(chunk));
    child.stdin!.on(
      "error",
      (error: Error) => this.#diagnose(`${this.#label}: stdin: ${error.message}`),
    );
    child.stdout!.on("error", () => {});
    child.stderr!.on("error", () => {});
    trackChild(child);
    this.#updateRef();
  }

  /**
   * Hold the runtime open only while a request waits for its answer, so an idle
   * server never keeps a script or CLI from exiting (the child is killed when
   * the host process exits; see `trackChild`).
   */
  #updateRef(): void {
    const child = this.#child;
    if (child === undefined) return;
    // Busy while a request waits, and while close() waits for the child to exit.
    const busy = this.#pending.size > 0 || (this.#closing !== undefined && !this.#hasExited);
    for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
      const refable = handle as { ref?: () => void; unref?: () => void } | null;
      try {
        if (busy) refable?.ref?.();
        else refable?.unref?.();
      } catch {
        // Deno throws for a child that never started; nothing to hold then.
      }
    }
  }

  #write(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): void {
    const stdin = this.#child?.stdin;
    if (this.#state !== "running" || !stdin || stdin.destroyed || stdin.writableEnded) return;
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

  /** Enter the failed state (once): reject everything in flight and stop the child. */
  #fail(error: Error): void {
    if (this.#state !== "running") return;
    this.#state = "failed";
    this.#failure = error;
    this.#rejectAll(error);
    void this.#terminate();
  }

  /** End stdin, SIGTERM, then SIGKILL after `killTimeoutMs`; resolves when the child has exited. */
  #terminate(): Promise<void> {
    const child = this.#child;
    if (!child || this.#hasExited) return this.#exited;
    try {
      child.stdin?.end();
    } catch { /* already gone */ }
    signalChild(child, "SIGTERM");
    const killer = setTimeout(() => {
      if (!this.#hasExited) signalChild(child, "SIGKILL");
    }, this.#options.killTimeoutMs ?? 2000);
    return this.#exited.then(() => clearTimeout(killer));
  }

  #spawnError(error: unknown): NetworkError {
    return spawnError(this.#label, this.#server, this.stderrTail(), error);
  }

  #exitError(code: number | null, signal: string | null): NetworkError {
    return exitError(this.#label, this.#server, this.stderrTail(), code, signal);
  }
}

/**
 * Start an MCP server as a child process (Deno and Node; not in browsers) and
 * talk newline-delimited JSON-RPC over its stdin/stdout. The child starts with
 * the first message. Details:
 *
 * - the program is started without a shell, with `args` as given, `cwd`, and
 *   an environment of the inherited variables (see `inheritEnv`) plus the
 *   server's `env`;
 * - responses are matched to requests by id; a response for an unknown id is
 *   reported as a diagnostic and ignored; stdout lines that are not JSON
 *   (banners) are diagnostics too; a line over `maxLineBytes` is a
 *   `ProtocolError` and stops the child;
 * - server requests are answered: `ping` with `{}`, anything else with -32601;
 * - a request that times out (`timeoutMs`) rejects with `TimeoutError` and
 *   **stops the child** (a stdio server that does not answer is wedged); every
 *   other pending request then rejects with `NetworkError`, as does every later one;
 * - when the child exits or cannot be started, pending and later requests
 *   reject with `NetworkError` naming the command, the exit code or signal,
 *   and the last stderr lines, with the server's secrets redacted;
 * - `close()` ends stdin, sends SIGTERM, then SIGKILL after `killTimeoutMs`,
 *   and resolves once the child has exited. It is idempotent.
 *
 * @example Talk to a stdio server by hand
 * ```ts
 * import { prepareServer } from "@skillmux/core";
 * import { createStdioTransport } from "@skillmux/core/stdio";
 * const server = prepareServer({ name: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const transport = createStdioTransport(server);
 * const answer = await transport.request(
 *   { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "demo", version: "1" } } },
 *   { timeoutMs: 30_000 },
 * );
 * console.log("result" in answer);
 * await transport.close();
 * ```
 */
export function createStdioTransport(
  server: PreparedServer,
  options: StdioTransportOptions = {},
): StdioTransport {
  if (server.kind !== "stdio" || !server.command) {
    throw new TypeError(
      `createStdioTransport needs a stdio server (with a command); ${
        JSON.stringify(server.name)
      } has none`,
    );
  }
  return new StdioTransportImpl(server, options);
}

/**
 * The stdio connector for `connect()`: pass `{ stdio: stdio() }` to connect `command` servers
 * (Deno and Node). Keeping it out of `connect()` keeps child processes out of browser bundles.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { stdio } from "@skillmux/core/stdio";
 * const client = await connect(
 *   { name: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] },
 *   { stdio: stdio({ inheritEnv: "minimal" }), timeoutMs: 30_000 },
 * );
 * console.log((await client.listTools()).length);
 * await client.close();
 * ```
 */
export function stdio(
  options: StdioTransportOptions = {},
): (server: PreparedServer) => StdioTransport {
  return (server) => createStdioTransport(server, options);
}
