/**
 * Prompt assembly: the system prompt and tool definitions for a selection
 * (OpenAI and Anthropic formats), untrusted content fenced, and a model's tool
 * calls executed on MCP servers or host functions.
 *
 * @module
 */

export type * from "./types.ts";
export * from "./assemble.ts";
export * from "./execute.ts";
export type * from "./discovery_types.ts";
export * from "./discovery.ts";
