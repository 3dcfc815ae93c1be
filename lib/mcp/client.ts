/**
 * `connect()`: one MCP server, any transport, behind one small client API.
 *
 * @module
 */

import * as v from "valibot";
import { isTimeoutError, raceSignal, scopedSignal } from "../_abort.ts";
import { isMcpError, ProtocolError, TimeoutError } from "./errors.ts";
import { type PreparedServer, prepareServer, type PrepareServerOptions } from "./policy/prepare.ts";
import { LATEST_PROTOCOL_VERSION, Session } from "./_session.ts";
import {
  CallToolSchema,
  GetPromptSchema,
  PromptsPageSchema,
  ReadResourceSchema,
  ResourcesPageSchema,
  TemplatesPageSchema,
  ToolsPageSchema,
} from "./_results.ts";
import {
  createStreamableHttpTransport,
  type HttpTransportOptions,
} from "./transport/streamable_http.ts";
import type { CallOptions, McpClient } from "./client_types.ts";
import type { McpTransport, TransportRequestOptions } from "./transport/interface.ts";
import type { Implementation, JsonRpcNotification, McpServerConfig } from "./types.ts";

/**
 * Default per-request timeout: 5 s.
 *
 * @example Give a slow server more time
 * ```ts
 * import { connect, DEFAULT_REQUEST_TIMEOUT_MS } from "@skillmux/core";
 * await connect({ name: "slow", url: "http://127.0.0.1:3001/mcp" }, { timeoutMs: 4 * DEFAULT_REQUEST_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/**
 * Default page cap for list calls; a repeated cursor also stops a listing.
 *
 * @example
 * ```ts
 * import { connect, DEFAULT_MAX_PAGES } from "@skillmux/core";
 * await connect({ name: "big", url: "http://127.0.0.1:3001/mcp" }, { maxPages: DEFAULT_MAX_PAGES * 10 });
 * ```
 */
export const DEFAULT_MAX_PAGES = 100;

/** Options of {@linkcode connect}. */
export interface ConnectOptions extends PrepareServerOptions {
  /** Per-request timeout in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Cancels the connection attempt. */
  signal?: AbortSignal;
  /** Deadline in milliseconds for the whole connection attempt, fallback included. */
  deadlineMs?: number;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /** How this client introduces itself. */
  clientInfo?: Implementation;
  /** The protocol version to ask for (default the newest supported). */
  protocolVersion?: string;
  /** Largest response accepted, in bytes (default 4 MiB), enforced while streaming. */
  maxResponseBytes?: number;
  /** Most pages a list call follows (default 100); a repeated cursor stops it too. */
  maxPages?: number;
  /** Retries for idempotent requests on network errors, 429 and 5xx (default 2). */
  retries?: number;
  /** Diagnostic lines (no secrets). */
  log?: (line: string) => void;
  /** Server notifications other than progress (list changes, log messages, …). */
  onNotification?: (message: JsonRpcNotification) => void;
}

const CLIENT_INFO: Implementation = { name: "skillmux", version: "0.1.0" };

/** HTTP statuses at initialize that mean "no Streamable HTTP here; try legacy SSE" (spec). */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** Legacy SSE is loaded only when a server needs it, keeping the common path small. */
async function openTransport(
  prepared: PreparedServer,
  options: ConnectOptions,
  kind: "streamable-http" | "sse",
): Promise<McpTransport> {
  const http: HttpTransportOptions = {
    fetch: options.fetch,
    maxResponseBytes: options.maxResponseBytes,
    retries: options.retries,
    log: options.log,
  };
  if (kind === "streamable-http") return createStreamableHttpTransport(prepared, http);
  const { createLegacySseTransport } = await import("./transport/legacy_sse.ts");
  return createLegacySseTransport(prepared, http);
}

async function startSession(
  transport: McpTransport,
  prepared: PreparedServer,
  options: ConnectOptions,
): Promise<Session> {
  transport.onNotification = options.onNotification;
  const session = new Session(
    transport,
    prepared.name,
    options.clientInfo ?? CLIENT_INFO,
    options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
  );
  try {
    await session.initialize({
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    });
    return session;
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
}

async function handshake(
  prepared: PreparedServer,
  options: ConnectOptions,
): Promise<[McpTransport, Session]> {
  if (prepared.kind === "stdio") {
    const { createStdioTransport } = await import("./transport/stdio.ts");
    const transport = createStdioTransport(prepared);
    return [transport, await startSession(transport, prepared, options)];
  }
  const first = prepared.transport === "sse" ? "sse" : "streamable-http";
  const transport = await openTransport(prepared, options, first);
  try {
    return [transport, await startSession(transport, prepared, options)];
  } catch (error) {
    const fallback = prepared.transport === "auto" && isMcpError(error, "HttpError") &&
      FALLBACK_STATUSES.has((error as unknown as { status: number }).status);
    if (!fallback) throw error;
    options.log?.(
      `${prepared.name}: Streamable HTTP refused initialize; trying the legacy HTTP+SSE transport`,
    );
    const legacy = await openTransport(prepared, options, "sse");
    return [legacy, await startSession(legacy, prepared, options)];
  }
}

/**
 * Connect to an MCP server: checks the configuration (URL and header policy,
 * `${VAR}` templating) before any network I/O, then initialises over
 * Streamable HTTP (JSON or SSE answers, stateless or with a session), falling
 * back to the legacy HTTP+SSE transport when the server answers 400/404/405,
 * or over stdio for `command` servers on Deno and Node.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect(
 *   { name: "docs", url: "https://mcp.example.com/mcp", apiKey: "${DOCS_KEY}" },
 *   { timeoutMs: 3_000, env: { DOCS_KEY: "secret" } },
 * );
 * const tools = await client.listTools();
 * const result = await client.callTool("search", { query: "samtools sort" });
 * await client.close();
 * ```
 */
export async function connect(
  server: McpServerConfig,
  options: ConnectOptions = {},
): Promise<McpClient> {
  const prepared = prepareServer(server, options);
  const [transport, session] = await withDeadline(
    options,
    `${prepared.name}: connecting took longer than its ${options.deadlineMs} ms deadline`,
    prepared.name,
    (signal) => handshake(prepared, { ...options, signal }),
  );
  return new Client(prepared.name, transport, session, options);
}

/**
 * Run `fn` under `options.signal` and, when `options.deadlineMs` is set, a
 * deadline that rejects with a `TimeoutError` carrying `message`.
 */
async function withDeadline<T>(
  options: { signal?: AbortSignal; deadlineMs?: number },
  message: string,
  server: string,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (options.deadlineMs === undefined) return await fn(options.signal);
  const scope = scopedSignal([options.signal], options.deadlineMs, message);
  try {
    return await raceSignal(fn(scope.signal), scope.signal);
  } catch (error) {
    if (scope.signal.aborted && isTimeoutError(scope.signal.reason) && !options.signal?.aborted) {
      throw new TimeoutError(message, { server, cause: error });
    }
    throw error;
  } finally {
    scope.dispose();
  }
}

class Client implements McpClient {
  readonly name: string;
  readonly #transport: McpTransport;
  readonly #session: Session;
  readonly #timeoutMs: number;
  readonly #maxPages: number;

  constructor(name: string, transport: McpTransport, session: Session, options: ConnectOptions) {
    this.name = name;
    this.#transport = transport;
    this.#session = session;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
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

  #deadline<T>(
    method: string,
    options: CallOptions,
    fn: (options: CallOptions) => Promise<T>,
  ): Promise<T> {
    const message =
      `${this.name}: ${method} took longer than its ${options.deadlineMs} ms deadline`;
    return withDeadline(
      options,
      message,
      this.name,
      (signal) => fn({ ...options, signal, deadlineMs: undefined }),
    );
  }

  #call<S extends v.GenericSchema>(
    schema: S,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    idempotent = true,
  ): Promise<v.InferOutput<S>> {
    return this.#deadline(
      method,
      options,
      (scoped) => this.#callOnce(schema, method, params, scoped, idempotent),
    );
  }

  async #callOnce<S extends v.GenericSchema>(
    schema: S,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
    idempotent: boolean,
  ): Promise<v.InferOutput<S>> {
    const request: TransportRequestOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      onProgress: options.onProgress,
      idempotent,
    };
    const result = await this.#session.request(method, params, request);
    const parsed = v.safeParse(schema, result);
    if (!parsed.success) {
      throw new ProtocolError(
        `${this.name}: invalid ${method} result: ${v.summarize(parsed.issues)}`,
        {
          server: this.name,
        },
      );
    }
    return parsed.output;
  }

  #all<T>(
    schema: v.GenericSchema<unknown, Record<string, unknown>>,
    method: string,
    key: string,
    options: CallOptions,
  ): Promise<T[]> {
    return this.#deadline(
      method,
      options,
      (scoped) => this.#allPages<T>(schema, method, key, scoped),
    );
  }

  async #allPages<T>(
    schema: v.GenericSchema<unknown, Record<string, unknown>>,
    method: string,
    key: string,
    options: CallOptions,
  ): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0;; pages++) {
      if (pages === this.#maxPages) {
        throw new ProtocolError(
          `${this.name}: ${method} has more than ${this.#maxPages} pages; stopped`,
          {
            server: this.name,
          },
        );
      }
      const page = await this.#call(
        schema,
        method,
        cursor === undefined ? undefined : { cursor },
        options,
      );
      items.push(...(page[key] as T[]));
      const next = page.nextCursor;
      if (typeof next !== "string" || next === "") return items;
      if (seen.has(next)) {
        throw new ProtocolError(
          `${this.name}: ${method} repeated cursor ${JSON.stringify(next)}; stopped`,
          {
            server: this.name,
          },
        );
      }
      seen.add(next);
      cursor = next;
    }
  }

  listResources(options: CallOptions = {}): ReturnType<McpClient["listResources"]> {
    return this.#all(ResourcesPageSchema, "resources/list", "resources", options);
  }
  listResourceTemplates(options: CallOptions = {}): ReturnType<McpClient["listResourceTemplates"]> {
    return this.#all(TemplatesPageSchema, "resources/templates/list", "resourceTemplates", options);
  }
  async readResource(
    uri: string,
    options: CallOptions = {},
  ): ReturnType<McpClient["readResource"]> {
    return (await this.#call(ReadResourceSchema, "resources/read", { uri }, options)).contents;
  }
  listTools(options: CallOptions = {}): ReturnType<McpClient["listTools"]> {
    return this.#all(ToolsPageSchema, "tools/list", "tools", options);
  }
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): ReturnType<McpClient["callTool"]> {
    const result = await this.#call(
      CallToolSchema,
      "tools/call",
      { name, arguments: args },
      options,
      false,
    );
    return result as Awaited<ReturnType<McpClient["callTool"]>>;
  }
  listPrompts(options: CallOptions = {}): ReturnType<McpClient["listPrompts"]> {
    return this.#all(PromptsPageSchema, "prompts/list", "prompts", options);
  }
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): ReturnType<McpClient["getPrompt"]> {
    const result = await this.#call(
      GetPromptSchema,
      "prompts/get",
      { name, arguments: args },
      options,
    );
    return result as Awaited<ReturnType<McpClient["getPrompt"]>>;
  }
  async ping(options: CallOptions = {}): Promise<number> {
    const start = performance.now();
    await this.#call(v.looseObject({}), "ping", undefined, options);
    return performance.now() - start;
  }
  close(): Promise<void> {
    return this.#transport.close();
  }
}
