/**
 * The client API returned by `connect`.
 *
 * @module
 */

import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Prompt,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
  TransportKind,
} from "../protocol/types.ts";
import type { Progress } from "../protocol/types.ts";
import type { ServerHint } from "./connect_options.ts";

/** Options of every client call. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /**
   * Per-request timeout in milliseconds. Discovery requests: the connection's `timeoutMs`
   * (default 5000). `tools/call` and any request with `onProgress`: the longest the server may
   * stay silent — each progress notification starts it again (default: the connection's
   * `callTimeoutMs`, 60000).
   */
  timeoutMs?: number;
  /**
   * `tools/call` and requests with `onProgress`: the longest the call may run in all, however
   * much progress it reports (default: the connection's `maxTotalMs`, 30 minutes). Time spent in
   * a host handler (elicitation, sampling, roots) counts neither here nor in `timeoutMs`.
   */
  maxTotalMs?: number;
  /**
   * Deadline in milliseconds for the whole call: every page of a list, and a
   * re-initialisation after a lost session. Rejects with `TimeoutError`.
   */
  deadlineMs?: number;
  /** Progress notifications for this call (e.g. long-running tools). */
  onProgress?: (progress: Progress) => void;
  /**
   * `callTool` only: run the call as an MCP task (2025-11-25): `true`, or `{ ttlMs }` to ask the
   * server to keep the result that long. Tools whose `execution.taskSupport` is `required` run as
   * tasks anyway (list the tools first). The client polls `tasks/get` at the server's
   * `pollInterval`, fetches `tasks/result`, and sends `tasks/cancel` when `signal` aborts.
   */
  task?: boolean | { ttlMs?: number };
  /** `callTool` as a task: each new status (`working`, `input_required`, …, and its message). */
  onTaskStatus?: (task: TaskInfo) => void;
}

/** Where an MCP task stands. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** An MCP task as the server reported it (`tasks/get`). */
export interface TaskInfo {
  /** The server's id of the task. */
  taskId: string;
  /** Where it stands. */
  status: TaskStatus;
  /** The server's words about it (untrusted text). */
  statusMessage?: string;
  /** How often the server wants to be asked, in milliseconds. */
  pollInterval?: number;
  /** How long the result is kept after the end, in ms (`null`: until removed). */
  ttl?: number | null;
  /** ISO 8601 times. */
  createdAt?: string;
  /** ISO 8601 time of the last change. */
  lastUpdatedAt?: string;
}

/** Options of {@linkcode McpClient.request}. */
export interface RequestOptions extends CallOptions {
  /** Safe to retry on network errors and to replay after a lost session (default `false`). */
  idempotent?: boolean;
}

/** `ttlMs` and `cacheScope` of the last result of a method (2026-07-28 servers send them). */
export interface CacheHintInfo {
  /** How long the result may be treated as fresh, in milliseconds (0: stale at once). */
  ttlMs: number;
  /** `public`: shareable across users; `private`: only for the same authorization. */
  cacheScope: "public" | "private";
  /** When it arrived (epoch milliseconds). */
  receivedAt: number;
}

/**
 * A connected MCP server.
 *
 * @example List tools and read a resource
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect({ name: "everything", url: "http://127.0.0.1:3001/mcp" });
 * console.log(client.serverInfo.name, client.protocolVersion);
 * for (const tool of await client.listTools()) console.log(tool.name);
 * await client.close();
 * ```
 */
export interface McpClient {
  /** The configured server name. */
  readonly name: string;
  /** Name and version the server reported. */
  readonly serverInfo: Implementation;
  /** The negotiated protocol version. */
  readonly protocolVersion: string;
  /** What the server said it can do. */
  readonly capabilities: ServerCapabilities;
  /** The server's instructions for the model, if any. */
  readonly instructions?: string;
  /** The transport in use after negotiation and fallback. */
  readonly transport: TransportKind;
  /** `modern` (2026-07-28, stateless) or `legacy` (an initialize handshake). */
  readonly era: "modern" | "legacy";
  /** What this connection learnt; pass it as `hint` to a later `connect()` to skip the era probe. */
  readonly hint: ServerHint;
  /**
   * Send any request (extension methods such as `skills/list`) with the same timeout, deadline,
   * size cap, era handling and error types as the fixed methods; resolves with the result.
   */
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>>;
  /** The caching hints of the last result of `method`, if the server sent any. */
  cacheHint(method: string): CacheHintInfo | undefined;
  /** Every resource, following `nextCursor` to the end (bounded). */
  listResources(options?: CallOptions): Promise<Resource[]>;
  /** Every resource template, following `nextCursor` to the end (bounded). */
  listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]>;
  /** The contents of one resource. */
  readResource(uri: string, options?: CallOptions): Promise<ResourceContents[]>;
  /**
   * Every tool, following `nextCursor` to the end (bounded). Over HTTP to a 2026-07-28 server,
   * tools whose `x-mcp-header` annotations are invalid are left out (with a log line).
   */
  listTools(options?: CallOptions): Promise<Tool[]>;
  /**
   * Call a tool. Never retried or replayed automatically. Over HTTP to a 2026-07-28 server, the
   * parameters the listed tool annotates with `x-mcp-header` are mirrored into `Mcp-Param-*`
   * headers (list the tools first). In a browser those headers need the server's CORS to allow
   * them; a server that does not gets a CORS refusal, reported as a `NetworkError`.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CallToolResult>;
  /** Every prompt, following `nextCursor` to the end (bounded). */
  listPrompts(options?: CallOptions): Promise<Prompt[]>;
  /** One prompt, filled in with `args`. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: CallOptions,
  ): Promise<GetPromptResult>;
  /** Round-trip a `ping`; resolves with the latency in milliseconds. */
  ping(options?: CallOptions): Promise<number>;
  /** End the session and release the connection. Idempotent. */
  close(): Promise<void>;
}
