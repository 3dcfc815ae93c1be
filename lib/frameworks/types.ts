/**
 * Options shared by the framework adapters (`@skillmux/core/ai-sdk`,
 * `@skillmux/core/langchain`).
 *
 * @module
 */

import type { Catalog, TokenCounter } from "../catalog/model/types.ts";
import type { Selection, SelectOptions } from "../catalog/model/select_types.ts";
import type { ToolSession } from "../prompt/types.ts";

/** What a framework adapter needs: the catalog and the request, or a selection already made. */
export interface FrameworkToolsOptions {
  /** The catalog to select from and to call. */
  catalog: Catalog;
  /** The user's request. */
  request: string;
  /** The selection to use (default: `selectForRequest(catalog, request, select)`). */
  selection?: Selection;
  /** Options of `selectForRequest` when no selection is given (an `llm`, caps, …). */
  select?: SelectOptions;
  /** Skills as an `activate_skill` tool (default `tool`) or inline in the system text. */
  skills?: "tool" | "inline";
  /**
   * Offer the `find_tools` meta-tool: the agent searches the catalog mid-loop and what it finds
   * becomes callable from its next step (default `false`).
   */
  discovery?: boolean;
  /** Most entries one `find_tools` call answers (default 5). */
  findLimit?: number;
  /** Most tools callable at once, selected and found (default 32). */
  maxTools?: number;
  /** Most tokens of the system text (default 16000). */
  budget?: number;
  /** Per-call timeout of tools, in ms (see `executeToolCall`). */
  timeoutMs?: number;
  /** Connections to reuse (default: a new session, closed by `close()`). */
  session?: ToolSession;
  /** Cancels selecting, loading and connecting. */
  signal?: AbortSignal;
  /** Token counter of the budget (default `countTokens`). */
  countTokens?: TokenCounter;
  /**
   * The command that approves held tools, named in the `held` diagnostic, the system text and
   * `find_tools` answers (default `skillmux approve`, the CLI's; the ids follow it). Approving in
   * code is `catalog.approve(ids)`.
   */
  approveCommand?: string;
}

/** A tool that waits for approval, as the adapters report it. */
export interface HeldFrameworkTool {
  /** The catalog id it will have once approved. */
  id: string;
  /** MCP tool or host function. */
  kind: "tool" | "function";
  /** Where it comes from (`mcp:<server>`, …). */
  source: string;
  /** `pending`: never approved; `changed`: changed since it was approved. */
  approval: "pending" | "changed";
  /** Whether its words fit the request. */
  fits: boolean;
}
