// Private: the client `connect()` returns — every call through one protocol session with the
// connection's timeout, a per-call deadline, result validation and bounded pagination; the
// tool list's `x-mcp-header` annotations kept for `tools/call` headers (2026-07-28 over HTTP).
// Long because: one class: every McpClient method over one protocol session (deadlines, result
// validation, bounded pagination, the tools' header annotations).

import { ProtocolError, RpcError } from "../protocol/errors.ts";
import { withDeadline } from "./_deadline.ts";
import { raceSignal, scopedSignal } from "../../_abort.ts";
import type { CallClock } from "./_watchdog.ts";
import type { ParamHeader } from "./_param_headers.ts";
import { checkResult } from "./_results.ts";
import type { ProtocolSession } from "./_protocol.ts";
import type { CacheHintInfo, CallOptions, McpClient, RequestOptions } from "./client_types.ts";
import type { ServerHint } from "./connect_options.ts";
import type { McpTransport } from "../transport/interface.ts";
import type { Implementation, Progress, Tool } from "../protocol/types.ts";

/** Settings of a client. */
export interface ClientSettings {
  /** Discovery requests (lists, reads, prompts, ping): one timeout, progress or not. */
  timeoutMs: number;
  /** `tools/call` and requests with progress: most silence; progress starts it again. */
  callTimeoutMs: number;
  /** `tools/call` and requests with progress: most time in all (host handler time excluded). */
  maxTotalMs: number;
  /** Stops every call's timers while a host handler runs. */
  clock: CallClock;
  maxPages: number;
  log: (line: string) => void;
  /** Stops the notification stream; called on close. */
  stop: () => void;
  /** The URL that answered, when not the prepared one (see `ServerHint.endpoint`). */
  endpoint?: string;
}

type Result = Record<string, unknown>;

/** The client of one server. */
export class Client implements McpClient {
  readonly name: string;
  readonly #transport: McpTransport;
  readonly #session: ProtocolSession;
  readonly #settings: ClientSettings;
  readonly #headers = new Map<string, ParamHeader[]>();
  /** `execution.taskSupport` of each listed tool. */
  readonly #taskSupport = new Map<string, string>();

  constructor(
    name: string,
    transport: McpTransport,
    session: ProtocolSession,
    settings: ClientSettings,
  ) {
    this.name = name;
    this.#transport = transport;
    this.#session = session;
    this.#settings = settings;
  }

  get serverInfo(): Implementation {
    const { name, version, ...rest } = this.#session.info.serverInfo;
    return { ...rest, name, version };
  }
  get protocolVersion(): string {
    return this.#session.info.protocolVersion;
  }
  get capabilities(): Record<string, unknown> {
    return this.#session.info.capabilities;
  }
  get instructions(): string | undefined {
    return this.#session.info.instructions;
  }
  get transport(): McpTransport["kind"] {
    return this.#transport.kind;
  }
  get era(): "modern" | "legacy" {
    return this.#session.era;
  }
  get hint(): ServerHint {
    const { era, info } = this.#session;
    const hint: ServerHint = {
      era,
      transport: this.transport,
      protocolVersion: info.protocolVersion,
      ...(this.#settings.endpoint === undefined ? {} : { endpoint: this.#settings.endpoint }),
    };
    const discover = this.#session.cacheHint("server/discover");
    if (era === "modern" && discover) {
      hint.discovery = {
        capabilities: info.capabilities,
        serverInfo: info.serverInfo,
        ...(info.instructions === undefined ? {} : { instructions: info.instructions }),
        expiresAt: discover.receivedAt + discover.ttlMs,
      };
    }
    return hint;
  }

  cacheHint(method: string): CacheHintInfo | undefined {
    return this.#session.cacheHint(method);
  }

  request(
    method: string,
    params?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.#call(method, params, options, options.idempotent ?? false);
  }

  #call(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    idempotent = true,
    headers?: Record<string, string>,
  ): Promise<Result> {
    return withDeadline(options, `${this.name}: ${method}`, this.name, async (signal) => {
      const long = method === "tools/call" || options.onProgress !== undefined;
      const result = long
        ? await this.#watched(method, params, options, signal, idempotent, headers)
        : await this.#session.request(method, params, {
          signal,
          timeoutMs: options.timeoutMs ?? this.#settings.timeoutMs,
          idempotent,
          headers,
        });
      const problem = checkResult(method, result);
      if (problem === undefined) return result;
      throw new ProtocolError(`${this.name}: invalid ${method} result: ${problem}`, {
        server: this.name,
      });
    });
  }

  /**
   * A long request under a watchdog: progress resets its idle timer, host handler time does not
   * count, and an abort or timeout settles it at once (the transport tells the server).
   */
  async #watched(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    signal: AbortSignal | undefined,
    idempotent: boolean,
    headers: Record<string, string> | undefined,
  ): Promise<Result> {
    const settings = this.#settings;
    const named = typeof params?.name === "string" ? ` ${JSON.stringify(params.name)}` : "";
    const dog = settings.clock.watch({
      idleMs: options.timeoutMs ??
        (method === "tools/call" ? settings.callTimeoutMs : settings.timeoutMs),
      maxMs: options.maxTotalMs ?? settings.maxTotalMs,
      what: `${this.name}: ${method}${named}`,
      server: this.name,
    });
    const scope = scopedSignal([signal, dog.signal]);
    const report = options.onProgress;
    // Always ask for progress: it is what keeps a long call alive.
    const onProgress = (progress: Progress) => {
      dog.kick();
      if (report === undefined) return;
      try {
        report(progress);
      } catch (error) {
        settings.log(`${this.name}: onProgress threw (${(error as Error)?.name ?? "error"})`);
      }
    };
    try {
      return await raceSignal(
        this.#session.request(method, params, {
          signal: scope.signal,
          watched: true,
          onProgress,
          idempotent,
          headers,
        }),
        scope.signal,
      );
    } finally {
      dog.dispose();
      scope.dispose();
    }
  }

  #all<T>(method: string, key: string, options: CallOptions): Promise<T[]> {
    return withDeadline(options, `${this.name}: ${method}`, this.name, async (signal) => {
      const items: T[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let pages = 0;; pages++) {
        if (pages === this.#settings.maxPages) {
          throw new ProtocolError(
            `${this.name}: ${method} has more than ${this.#settings.maxPages} pages; stopped`,
            { server: this.name },
          );
        }
        const params = cursor === undefined ? undefined : { cursor };
        const page = await this.#call(method, params, {
          ...options,
          signal,
          deadlineMs: undefined,
        });
        items.push(...(page[key] as T[]));
        const next = page.nextCursor;
        if (typeof next !== "string" || next === "") return items;
        if (seen.has(next)) {
          throw new ProtocolError(
            `${this.name}: ${method} repeated cursor ${JSON.stringify(next)}; stopped`,
            { server: this.name },
          );
        }
        seen.add(next);
        cursor = next;
      }
    });
  }

  listResources(options: CallOptions = {}): ReturnType<McpClient["listResources"]> {
    return this.#all("resources/list", "resources", options);
  }
  listResourceTemplates(options: CallOptions = {}): ReturnType<McpClient["listResourceTemplates"]> {
    return this.#all("resources/templates/list", "resourceTemplates", options);
  }
  async readResource(
    uri: string,
    options: CallOptions = {},
  ): ReturnType<McpClient["readResource"]> {
    return (await this.#call("resources/read", { uri }, options)).contents as Awaited<
      ReturnType<McpClient["readResource"]>
    >;
  }
  async listTools(options: CallOptions = {}): Promise<Tool[]> {
    const tools = await this.#all<Tool>("tools/list", "tools", options);
    this.#taskSupport.clear();
    for (const tool of tools) {
      const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
      if (typeof support === "string") this.#taskSupport.set(tool.name, support);
    }
    if (this.era !== "modern" || this.transport === "stdio") return tools;
    // x-mcp-header rules load with the first modern tool list (browser bundles stay small).
    const { paramHeaders } = await import("./_param_headers.ts");
    this.#headers.clear();
    return tools.filter((tool) => {
      const specs = paramHeaders(tool);
      if (Array.isArray(specs)) return this.#headers.set(tool.name, specs), true;
      this.#settings.log(`${this.name}: left out tool "${tool.name}": ${specs.invalid}`);
      return false;
    });
  }
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): ReturnType<McpClient["callTool"]> {
    const specs = this.#headers.get(name);
    const values = specs?.length
      ? (await import("./_param_headers.ts")).paramHeaderValues
      : undefined;
    const headers = values?.(specs!, args);
    const params = { name, arguments: args };
    const asTask = options.task !== undefined && options.task !== false ||
      this.#taskSupport.get(name) === "required";
    if (asTask && this.era === "legacy") return await this.#task(params, options);
    try {
      return await this.#call("tools/call", params, options, false, headers) as Awaited<
        ReturnType<McpClient["callTool"]>
      >;
    } catch (error) {
      // HeaderMismatch: the tool's annotations changed; list again and retry once (spec).
      if (!(error instanceof RpcError) || error.rpcCode !== -32020 || this.era !== "modern") {
        throw error;
      }
      await this.listTools(options);
      const again = this.#headers.get(name);
      const { paramHeaderValues } = await import("./_param_headers.ts");
      const retry = again?.length ? paramHeaderValues(again, args) : undefined;
      return await this.#call("tools/call", params, options, false, retry) as Awaited<
        ReturnType<McpClient["callTool"]>
      >;
    }
  }
  /** `tools/call` as an MCP task (see `_tasks.ts`), under the caller's signal and deadline. */
  #task(params: Result, options: CallOptions): ReturnType<McpClient["callTool"]> {
    const what = `${this.name}: tools/call ${JSON.stringify(params.name)} as a task`;
    return withDeadline(options, what, this.name, async (outer) => {
      const { runToolTask } = await import("./_tasks.ts");
      const scope = scopedSignal([outer]);
      try {
        const ttlMs = typeof options.task === "object" ? options.task.ttlMs : undefined;
        const result = await raceSignal(
          runToolTask(
            {
              server: this.name,
              log: this.#settings.log,
              send: (method, body, signal, long) =>
                long
                  ? this.#watched(method, body, { ...options, signal }, signal, false, undefined)
                  : this.#session.request(method, body, {
                    signal,
                    timeoutMs: this.#settings.timeoutMs,
                    idempotent: method === "tasks/get",
                  }),
            },
            params,
            { signal: scope.signal, ttlMs, onTaskStatus: options.onTaskStatus },
          ),
          scope.signal,
        );
        const problem = checkResult("tools/call", result);
        if (problem !== undefined) {
          throw new ProtocolError(`${this.name}: invalid task result: ${problem}`, {
            server: this.name,
          });
        }
        return result as Awaited<ReturnType<McpClient["callTool"]>>;
      } finally {
        scope.dispose();
      }
    });
  }

  listPrompts(options: CallOptions = {}): ReturnType<McpClient["listPrompts"]> {
    return this.#all("prompts/list", "prompts", options);
  }
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): ReturnType<McpClient["getPrompt"]> {
    const result = await this.#call("prompts/get", { name, arguments: args }, options);
    return result as Awaited<ReturnType<McpClient["getPrompt"]>>;
  }
  async ping(options: CallOptions = {}): Promise<number> {
    const start = performance.now();
    // 2026-07-28 removed ping; a discovery is the cheapest round trip there.
    const method = this.era === "modern" ? "server/discover" : "ping";
    await this.#call(method, undefined, options);
    return performance.now() - start;
  }
  close(): Promise<void> {
    this.#settings.stop();
    return this.#transport.close();
  }
}
