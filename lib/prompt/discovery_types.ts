/**
 * Types of tool discovery in an agent loop: the options and the session of
 * `createToolDiscovery`.
 *
 * @module
 */

import type { Catalog } from "../catalog/model/types.ts";
import type { AnthropicTool, OpenAiTool, ToolCall, ToolCallResult, ToolSession } from "./types.ts";

/** Options of `createToolDiscovery`. */
export interface ToolDiscoveryOptions {
  /** The catalog searched and called. */
  catalog: Catalog;
  /**
   * Callable from the first step: tool ids, and skill ids `activate_skill` may load (a
   * `Selection` fits). Ids that are not usable catalog entries (held, unknown) are left out.
   */
  initial?: { tools?: readonly string[]; skills?: readonly string[] };
  /** Offer the `find_tools` meta-tool (default `true`). */
  find?: boolean;
  /** Most entries one `find_tools` call answers (default 5). */
  limit?: number;
  /** Most tools callable at once, initial and found (default 32). */
  maxTools?: number;
  /** Connections to reuse (default: a new session, closed by `close()`). */
  session?: ToolSession;
  /** Per-call timeout of tools, in ms (see `executeToolCall`). */
  timeoutMs?: number;
  /**
   * The command that approves held tools, named when `find_tools` finds tools that wait for
   * approval (default `skillmux approve`; the ids follow it).
   */
  approveCommand?: string;
}

/** An Anthropic tool definition, deferred when Anthropic's tool search should load it. */
export type AnthropicDiscoveryTool = AnthropicTool & { defer_loading?: true };

/** A discovery session: what is callable now, and the model's calls answered. */
export interface ToolDiscovery {
  /** The tool ids callable in the current step. */
  readonly active: readonly string[];
  /**
   * Start a step: tools found by `find_tools` in earlier steps become callable. Returns the
   * names to offer (tools, then `activate_skill` and `find_tools` when offered).
   */
  advance(): string[];
  /** Start a step (see `advance`) and give its tool definitions in the OpenAI format. */
  definitions(format: "openai"): OpenAiTool[];
  /**
   * Start a step and give its tool definitions in the Anthropic format. With `deferLoading`,
   * every other usable tool of the catalog follows with `defer_loading: true`, for Anthropic's
   * own tool search (add its tool search tool to the request), and may be called.
   */
  definitions(format: "anthropic", options?: { deferLoading?: boolean }): AnthropicDiscoveryTool[];
  /**
   * Answer a tool call of the model (OpenAI or Anthropic format): `find_tools` here, anything
   * else through `executeToolCall`, limited to what is callable in this step.
   */
  handle(call: ToolCall, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  /** The connections used. */
  readonly session: ToolSession;
  /** Close the connections this session opened (not a session it was given). */
  close(): Promise<void>;
}
