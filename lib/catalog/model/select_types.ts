/**
 * Types of selection and of the LLM adapters.
 *
 * @module
 */

import type { TokenCounter } from "./types.ts";

/** A chat message as the LLM adapters take it. */
export interface ChatMessage {
  /** Who speaks. */
  role: "system" | "user" | "assistant";
  /** The text. */
  content: string;
}

/**
 * The LLM as a plain function, the way `fetch` is one: messages in, the
 * model's text out. The core never depends on a provider SDK; use
 * `createOpenAiModel`, `createAnthropicModel` or your own.
 */
export type SelectModel = (
  messages: ChatMessage[],
  options: { signal: AbortSignal },
) => Promise<string>;

/** Options of {@linkcode selectForRequest}. */
export interface SelectOptions {
  /** The model; without one, keyword ranking selects. */
  llm?: SelectModel;
  /** Extra context for the model (conversation summary, files at hand). */
  context?: string;
  /** Most tokens for the catalog listing in the prompt (default 8000: the 86 built-in skills alone take about 4,400). */
  budget?: number;
  /** Cancels the selection (the keyword fallback still answers unless the caller aborted). */
  signal?: AbortSignal;
  /** How long the model may take, in ms (default 60000); then keywords select. */
  timeoutMs?: number;
  /** Most skills selected (default 3). */
  maxSkills?: number;
  /** Most tools and functions selected (default 8). */
  maxTools?: number;
  /** Longest request accepted, in characters (default 100000); longer ones are refused. */
  maxRequestChars?: number;
  /** Longest model answer read, in characters (default 200000); longer ones count as unusable. */
  maxAnswerChars?: number;
  /** Token counter for the budget (default `countTokens`). */
  countTokens?: TokenCounter;
}

/** Why keyword ranking selected instead of the model. */
export interface SelectionFallback {
  /** `no-llm`: none given; `error`: it threw; `timeout`; `unusable`: its answer could not be used. */
  reason: "no-llm" | "error" | "timeout" | "unusable";
  /** What happened, in a sentence (no secrets: adapters keep keys out of messages). */
  message: string;
}

/** An entry held for approval, as a selection reports it. */
export interface HeldSelectionEntry {
  /** The entry's id. */
  id: string;
  /** Skill, MCP tool or host function. */
  kind: "skill" | "tool" | "function";
  /** Where it comes from (`mcp:<server>`, `user`…). */
  source: string;
  /** `pending`: new, never approved; `changed`: changed since it was approved. */
  approval: "pending" | "changed";
  /** Whether its words would make it relevant to the request (keyword evidence). */
  fits: boolean;
  /** Held skills: the source whose approved version answers under this id meanwhile. */
  standIn?: string;
}

/** What {@linkcode selectForRequest} returns. */
export interface Selection {
  /** How the selection was made. */
  via: "llm" | "keyword";
  /** Whether the request needs several steps or tools. */
  complexity: "simple" | "complex";
  /** Skill ids, best first. */
  skills: string[];
  /** MCP tool and host function ids, best first. */
  tools: string[];
  /** Whether the request needs something the catalog does not offer (the model's view). */
  needsExternal: boolean;
  /** The model's reasoning, or how the keywords ranked. */
  reasoning: string;
  /** Set when keywords selected because the model could not. */
  fallback?: SelectionFallback;
  /**
   * Entries held for approval (never selected): those whose words fit the request first, with
   * why they wait. Empty when nothing is held; a diagnostic names them too. Always set by
   * {@linkcode selectForRequest}.
   */
  held?: HeldSelectionEntry[];
  /** Set when nothing was selected: why nothing in the catalog fits the request. */
  reason?: string;
  /** Dropped ids, capped lists and the like. */
  diagnostics: string[];
  /** Keyword path: the BM25+ score of each selected id. */
  scores?: Record<string, number>;
  /** The catalog listing sent to the model: its tokens and how many entries the budget left out. */
  listing?: { tokens: number; omitted: number };
}

/** Options both adapters share. */
export interface LlmHttpOptions {
  /** The model name, e.g. `gpt-4.1-mini` or `claude-sonnet-4-5`. */
  model: string;
  /** The API key (sent as the provider expects; never in errors). */
  apiKey?: string;
  /** The API's base URL (see each adapter's default). */
  baseUrl?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** Most tokens the model may answer with (default 1024). */
  maxTokens?: number;
  /** Sampling temperature (default 0). */
  temperature?: number;
  /** Per-attempt timeout in ms (default 60000). */
  timeoutMs?: number;
  /** Retries on network errors, 408, 429 and 5xx (default 2), with backoff and `Retry-After`. */
  retries?: number;
  /** Largest response read, in bytes (default 4 MiB). */
  maxResponseBytes?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Options of {@linkcode createOpenAiModel}. */
export interface OpenAiModelOptions extends LlmHttpOptions {
  /** Default `https://api.openai.com/v1`; llama.cpp `http://127.0.0.1:8080/v1`, Ollama `http://127.0.0.1:11434/v1`. */
  baseUrl?: string;
  /** Ask for a JSON object (`response_format: { type: "json_object" }`; default `true`). */
  jsonMode?: boolean;
  /** The token limit field: `max_tokens` (default, widest support) or `max_completion_tokens` (OpenAI reasoning models). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/** Options of {@linkcode createAnthropicModel}. */
export interface AnthropicModelOptions extends LlmHttpOptions {
  /** Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /** The `anthropic-version` header (default `2023-06-01`). */
  version?: string;
}
