/**
 * Public types of the MCP client: server configuration, JSON-RPC messages and
 * the MCP results skillmux reads. Field names follow the MCP specification
 * (2024-11-05 … 2025-11-25); unknown fields are kept, never rejected.
 *
 * @module
 */

/** How to reach one MCP server. Exactly one of `url` and `command` is set. */
export interface McpServerConfig {
  /** Unique, human-chosen name; provenance labels are `mcp:<name>`. */
  name: string;
  /** HTTP endpoint. A URL without a path gets `/mcp` appended; a URL with a path is used as given. */
  url?: string;
  /** stdio: the program to start (Deno/Node only). */
  command?: string;
  /** stdio: its arguments. */
  args?: string[];
  /** stdio: extra environment variables for the child. */
  env?: Record<string, string>;
  /** stdio: working directory of the child. */
  cwd?: string;
  /** Sent as `Authorization: Bearer <apiKey>`. May use `${VAR}` / `${VAR:-default}`. Never logged. */
  apiKey?: string;
  /** Extra HTTP headers (checked by the header policy). Values may use `${VAR}` templating. */
  headers?: Record<string, string>;
  /** Disabled servers are kept in the registry but never contacted. Default `true`. */
  enabled?: boolean;
  /** Force a transport instead of trying Streamable HTTP, then legacy SSE. Default `"auto"`. */
  transport?: "auto" | "streamable-http" | "sse";
}

/** The transports skillmux speaks. */
export type TransportKind = "streamable-http" | "sse" | "stdio";

/** A JSON-RPC id. */
export type JsonRpcId = string | number;

/** A JSON-RPC request. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC notification (no id, no answer). */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** The error object of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC response: a result or an error for the request with the same id. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** Name and version of an MCP client or server. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** What a server said it can do (`capabilities` of the initialize result). */
export type ServerCapabilities = Record<string, unknown>;

/** A tool a server offers. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Hints (`readOnlyHint`, `destructiveHint`, …); untrusted, as the spec says. */
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A resource a server lists. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  [key: string]: unknown;
}

/** A resource template (RFC 6570 `uriTemplate`). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** The contents of a resource: text or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}

/** One block of tool output. */
export type ContentBlock =
  | { type: "text"; text: string; [key: string]: unknown }
  | { type: "image"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "audio"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "resource"; resource: ResourceContents; [key: string]: unknown }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; [key: string]: unknown };

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** A prompt a server offers. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  [key: string]: unknown;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  description?: string;
  messages: Array<{ role: "user" | "assistant"; content: ContentBlock }>;
  [key: string]: unknown;
}

/** A `notifications/progress` payload. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}
