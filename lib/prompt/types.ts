/**
 * Types of prompt assembly and tool execution: tool definitions and tool calls
 * in the OpenAI and Anthropic formats, the assembled prompt, and results.
 *
 * @module
 */

import type { ContentBlock } from "../mcp/protocol/types.ts";
import type { Catalog, JsonSchema, TokenCounter } from "../catalog/model/types.ts";
import type { Selection } from "../catalog/model/select_types.ts";
import type { McpClient } from "../mcp/client/client_types.ts";

/** An OpenAI chat-completions tool definition. */
export interface OpenAiTool {
  /** Always `function`. */
  type: "function";
  /** The tool's name, description and JSON Schema of its arguments. */
  function: { name: string; description: string; parameters: JsonSchema };
}

/** An Anthropic Messages tool definition. */
export interface AnthropicTool {
  /** The tool's name. */
  name: string;
  /** What the tool does. */
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: JsonSchema;
}

/** A tool call as OpenAI chat completions return it (`message.tool_calls[i]`). */
export interface OpenAiToolCall {
  /** The call's id, echoed in the answer. */
  id: string;
  /** Always `function`. */
  type: "function";
  /** The tool's name and its arguments as a JSON string. */
  function: { name: string; arguments: string };
}

/** A tool call as the Anthropic Messages API returns it (a `tool_use` content block). */
export interface AnthropicToolUse {
  /** Always `tool_use`. */
  type: "tool_use";
  /** The call's id, echoed in the result. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments. */
  input: Record<string, unknown>;
}

/** A model's tool call in either format. */
export type ToolCall = OpenAiToolCall | AnthropicToolUse;

/** The OpenAI message answering a tool call. */
export interface OpenAiToolMessage {
  /** Always `tool`. */
  role: "tool";
  /** The id of the call answered. */
  tool_call_id: string;
  /** The tool's output as text. */
  content: string;
}

/** One block of an Anthropic tool result. */
export type AnthropicResultBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } };

/** The Anthropic content block answering a `tool_use`. */
export interface AnthropicToolResult {
  /** Always `tool_result`. */
  type: "tool_result";
  /** The id of the `tool_use` answered. */
  tool_use_id: string;
  /** The tool's output. */
  content: AnthropicResultBlock[];
  /** Whether the tool failed. */
  is_error?: boolean;
}

/** What `executeToolCall` returns: the reply in the format of the call, and what happened. */
export type ToolCallResult =
  & {
    /** The catalog id called (`activate_skill` for skill activation). */
    id: string;
    /** Whether the call failed (bad arguments, unknown tool, the tool's own error). */
    isError: boolean;
    /** The result as MCP content blocks. */
    content: ContentBlock[];
    /** Notes, e.g. output that tries to address the model. */
    diagnostics: string[];
  }
  & (
    | { format: "openai"; reply: OpenAiToolMessage }
    | { format: "anthropic"; reply: AnthropicToolResult }
  );

/** A problem met while assembling a prompt. */
export interface PromptDiagnostic {
  /** The entry concerned. */
  id?: string;
  /** The kind of problem. */
  problem: "injection" | "unavailable" | "truncated" | "budget" | "unapproved-tools";
  /** A sentence saying what happened. */
  message: string;
}

/** Options of {@linkcode assemblePrompt}. */
export interface AssemblePromptOptions {
  /** The user's request. */
  request: string;
  /** What `selectForRequest` chose. */
  selection: Selection;
  /** The catalog it chose from. */
  catalog: Catalog;
  /** Most tokens for the system prompt (default 16000); skills that do not fit are cut or left out. */
  budget?: number;
  /** `inline` (default): selected skill bodies in the system prompt; `tool`: an `activate_skill` tool loads them on demand (agent loops). */
  skills?: "inline" | "tool";
  /** Most characters of any one piece of fenced content: remote, or from a registry (default 16000). */
  remoteMaxChars?: number;
  /** Connections to reuse (default: a new session, returned in the result; close it when done). */
  session?: ToolSession;
  /** Connect the selected tools' servers now (default `true`), so a dead server shows here rather than at the first call. */
  connect?: boolean;
  /** Cancels loading and connecting. */
  signal?: AbortSignal;
  /** Token counter for the budget (default `countTokens`). */
  countTokens?: TokenCounter;
}

/** What {@linkcode assemblePrompt} returns. */
export interface AssembledPrompt {
  /** The system prompt: instructions, the selected skills (remote ones fenced), the tools' provenance. */
  system: string;
  /** Its token count. */
  tokens: number;
  /**
   * Tool definitions of the selected tools, `activate_skill` in `tool` mode, and
   * `read_skill_file` when a selected skill has files (in `tool` mode: for every selected skill).
   */
  tools: { openai: OpenAiTool[]; anthropic: AnthropicTool[] };
  /** Ready-made first messages: OpenAI `messages`, Anthropic `system` + `messages`. */
  messages: {
    openai: Array<{ role: "system" | "user"; content: string }>;
    anthropic: { system: string; messages: Array<{ role: "user"; content: string }> };
  };
  /** What was loaded: skills (inline or on demand) and tools (with whether their server is connected). */
  loaded: {
    skills: Array<{
      id: string;
      source: string;
      inline: boolean;
      /** Where an inline folder skill lives (a path, key prefix or `skill://` URI). */
      folder?: string;
      /** How many files an inline folder skill's block lists. */
      files?: number;
    }>;
    tools: Array<{ id: string; source: string; connected: boolean }>;
  };
  /** Problems: unavailable entries, cut content, flagged injections, unapproved tool requests. */
  diagnostics: PromptDiagnostic[];
  /** The connections used. */
  session: ToolSession;
  /** Run a tool call of the model, limited to the tools offered in this prompt. */
  executeToolCall(call: ToolCall, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
}

/** Options of {@linkcode executeToolCall}. */
export interface ExecuteToolCallOptions {
  /** The catalog the tool comes from. */
  catalog: Catalog;
  /** Connections to use (default: one opened for this call and closed after it). */
  session?: ToolSession;
  /** Only these ids may run (default: every usable tool and function of the catalog). */
  allow?: readonly string[];
  /** Skill ids `activate_skill` may load (default none: the tool is refused). */
  skills?: readonly string[];
  /** Skill ids whose files `read_skill_file` may read (default none: the tool is refused). */
  skillFiles?: readonly string[];
  /** Cancels the call. */
  signal?: AbortSignal;
  /**
   * Host functions: how long they may take, in ms. MCP tools: the longest the server may stay
   * silent; each progress notification starts it again (up to the connection's `maxTotalMs`).
   * Default 60000.
   */
  timeoutMs?: number;
}

/** Open connections to the servers of a catalog's tools. */
export interface ToolSession {
  /** The connected client for a `tool` entry (connecting on first use). */
  client(id: string, options?: { signal?: AbortSignal }): Promise<McpClient>;
  /** Names of the servers this session has connected. */
  connected(): string[];
  /** Close every connection this session opened (not clients the catalog was given). */
  close(): Promise<void>;
}
