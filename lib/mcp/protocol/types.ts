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
  /** This server's discovery timeout in ms (lists, reads, `initialize`); overrides the client's. */
  timeoutMs?: number;
  /** This server's `tools/call` idle timeout in ms (progress resets it); overrides the client's. */
  callTimeoutMs?: number;
  /** This server's longest `tools/call` in ms, progress or not; overrides the client's. */
  maxTotalMs?: number;
  /** Where the entry came from, when it was added from an MCP registry (`mcp add --from-registry`). */
  origin?: ServerOrigin;
  /**
   * stdio: how long the program may take to write its first answer after it is started, in ms
   * (default 60000: `npx -y` and `uvx` fetch a package on first use); request timeouts count
   * from then on.
   */
  startupTimeoutMs?: number;
  /** stdio: on close, how long the program may take to exit after its stdin closes before SIGTERM, in ms (default 2000). */
  closeTimeoutMs?: number;
  /** stdio: how long the program may take to exit after SIGTERM before SIGKILL, in ms (default 2000). */
  killTimeoutMs?: number;
}

/** The MCP registry entry a server was added from, so that a newer version can be offered. */
export interface ServerOrigin {
  /** The registry (its URL, or `biocontext:local` for a folder). */
  registry: string;
  /** The server's name there, e.g. `io.github.owner/weather`. */
  name: string;
  /** The version added. */
  version: string;
  /** Which way to run it was chosen (an index of `launchOptions`). */
  option?: number;
  /** The values given that are not secrets (secrets stay in `env`, `headers` or `apiKey`). */
  values?: Record<string, string>;
}

/** The transports skillmux speaks. */
export type TransportKind = "streamable-http" | "sse" | "stdio";

/** A JSON-RPC id. */
export type JsonRpcId = string | number;

/** A JSON-RPC request. */
export interface JsonRpcRequest {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** Matches the response to this request. */
  id: JsonRpcId;
  /** The method to call, e.g. `tools/list`. */
  method: string;
  /** The method's parameters. */
  params?: Record<string, unknown>;
}

/** A JSON-RPC notification (no id, no answer). */
export interface JsonRpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The notification, e.g. `notifications/initialized`. */
  method: string;
  /** The notification's parameters. */
  params?: Record<string, unknown>;
}

/** The error object of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  /** The JSON-RPC error code, e.g. -32602 for invalid params. */
  code: number;
  /** A short description of the error. */
  message: string;
  /** More about the error, as the server sent it. */
  data?: unknown;
}

/** A JSON-RPC response: a result or an error for the request with the same id. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** Name and version of an MCP client or server. */
export interface Implementation {
  /** The implementation's programmatic name. */
  name: string;
  /** Its version. */
  version: string;
  /** A name for display. */
  title?: string;
  /** Other fields the peer sent. */
  [key: string]: unknown;
}

/** What a server said it can do (`capabilities` of the initialize result). */
export type ServerCapabilities = Record<string, unknown>;

/** A tool a server offers. */
export interface Tool {
  /** The tool's name, unique on its server. */
  name: string;
  /** A name for display. */
  title?: string;
  /** What the tool does (untrusted: it comes from the server). */
  description?: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of `structuredContent`, when the tool declares one. */
  outputSchema?: Record<string, unknown>;
  /** Hints (`readOnlyHint`, `destructiveHint`, …); untrusted, as the spec says. */
  annotations?: Record<string, unknown>;
  /** Metadata the server attached. */
  _meta?: Record<string, unknown>;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A resource a server lists. */
export interface Resource {
  /** The resource's URI, e.g. `skill://samtools`. */
  uri: string;
  /** The resource's name. */
  name: string;
  /** A name for display. */
  title?: string;
  /** What the resource holds. */
  description?: string;
  /** Its MIME type, e.g. `text/markdown`. */
  mimeType?: string;
  /** Its size in bytes, when the server knows it. */
  size?: number;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A resource template (RFC 6570 `uriTemplate`). */
export interface ResourceTemplate {
  /** The RFC 6570 URI template. */
  uriTemplate: string;
  /** The template's name. */
  name: string;
  /** A name for display. */
  title?: string;
  /** What the resources hold. */
  description?: string;
  /** Their MIME type. */
  mimeType?: string;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** The contents of a resource: text or base64 `blob`. */
export interface ResourceContents {
  /** The URI that was read. */
  uri: string;
  /** Its MIME type. */
  mimeType?: string;
  /** The contents, for text resources. */
  text?: string;
  /** The contents in base64, for binary resources. */
  blob?: string;
  /** Other fields the server sent. */
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
  /** The output blocks (text, image, audio, resources). */
  content: ContentBlock[];
  /** Structured output, for tools with an `outputSchema`. */
  structuredContent?: Record<string, unknown>;
  /** Whether the tool failed (its output then says why). */
  isError?: boolean;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A prompt a server offers. */
export interface Prompt {
  /** The prompt's name. */
  name: string;
  /** A name for display. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /** The arguments the prompt takes. */
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  /** What the prompt is for. */
  description?: string;
  /** The prompt's messages. */
  messages: Array<{ role: "user" | "assistant"; content: ContentBlock }>;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A `notifications/progress` payload. */
export interface Progress {
  /** Progress so far. */
  progress: number;
  /** The total, when known. */
  total?: number;
  /** A sentence about the progress. */
  message?: string;
}
