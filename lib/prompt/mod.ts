/**
 * Prompt assembly: the system prompt and tool definitions for a selection
 * (OpenAI and Anthropic formats), untrusted content fenced, and a model's tool
 * calls executed on MCP servers or host functions.
 *
 * @module
 */

export { assemblePrompt } from "./assemble.ts";
export { createToolDiscovery } from "./discovery.ts";
export type {
  AnthropicDiscoveryTool,
  ToolDiscovery,
  ToolDiscoveryOptions,
} from "./discovery_types.ts";
export { executeToolCall } from "./execute.ts";
export type {
  AnthropicResultBlock,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolUse,
  AssembledPrompt,
  AssemblePromptOptions,
  ExecuteToolCallOptions,
  OpenAiTool,
  OpenAiToolCall,
  OpenAiToolMessage,
  PromptDiagnostic,
  ToolCall,
  ToolCallResult,
  ToolSession,
} from "./types.ts";
