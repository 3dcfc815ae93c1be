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
} from "./types.ts";
import type { Progress } from "./types.ts";

/** Options of every client call. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Per-request timeout in milliseconds (default: the connection's, 5000). */
  timeoutMs?: number;
  /**
   * Deadline in milliseconds for the whole call: every page of a list, and a
   * re-initialisation after a lost session. Rejects with `TimeoutError`.
   */
  deadlineMs?: number;
  /** Progress notifications for this call (e.g. long-running tools). */
  onProgress?: (progress: Progress) => void;
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
  /** Every resource, following `nextCursor` to the end (bounded). */
  listResources(options?: CallOptions): Promise<Resource[]>;
  /** Every resource template, following `nextCursor` to the end (bounded). */
  listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]>;
  /** The contents of one resource. */
  readResource(uri: string, options?: CallOptions): Promise<ResourceContents[]>;
  /** Every tool, following `nextCursor` to the end (bounded). */
  listTools(options?: CallOptions): Promise<Tool[]>;
  /** Call a tool. Never retried or replayed automatically. */
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
