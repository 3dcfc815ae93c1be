/**
 * The catalog: skills, MCP tools and host functions as one list, keyword
 * ranking, compact rendering within a token budget, approvals, and one-call
 * LLM selection with its OpenAI and Anthropic adapters.
 *
 * @module
 */

export type * from "./types.ts";
export type * from "./select_types.ts";
export * from "./llm_error.ts";
export * from "./catalog.ts";
export * from "./keyword.ts";
export * from "./tokens.ts";
export * from "./select.ts";
export * from "./evaluate.ts";
export * from "./llm.ts";
export * from "./find_tools.ts";
export * from "./held_tools.ts";
export type * from "./semantic_types.ts";
export * from "./semantic.ts";
export * from "./semantic_endpoints.ts";
