/**
 * The catalog in full (`@skillmux/core/catalog`): skills, MCP tools and host
 * functions as one list, approvals, keyword and semantic ranking, tool search
 * for agents, compact rendering within a token budget, token counts, one-call
 * LLM selection and its evaluation. `.` holds the names most apps need
 * (`createCatalog`, `selectForRequest` and their main types); the chat,
 * embedding and rerank HTTP adapters are at `@skillmux/core/llm`.
 *
 * @example Search a catalog the way an agent's `find_tools` call does
 * ```ts
 * import { createCatalog } from "@skillmux/core";
 * import { findTools } from "@skillmux/core/catalog";
 * const catalog = await createCatalog({
 *   functions: [
 *     { name: "lookup_sample", description: "Find a sample's FASTQ files", handler: () => [] },
 *   ],
 * });
 * console.log(findTools(catalog, "fastq files of sample S1")[0]?.id); // "lookup_sample"
 * ```
 *
 * @module
 */

export { createCatalog } from "./build/catalog.ts";
export {
  type EvaluatedRequest,
  type EvaluateOptions,
  evaluateSelection,
  type Evaluation,
  type LabelledRequest,
  parseLabelledRequests,
} from "./select/evaluate.ts";
export { findTools, type FindToolsOptions, type FoundTool } from "./search/find_tools.ts";
export {
  findHeldTools,
  type FindHeldToolsOptions,
  type HeldTool,
  heldToolsNotice,
  type HeldToolsNoticeOptions,
} from "./search/held_tools.ts";
export { createKeywordIndex } from "./search/keyword.ts";
export { selectForRequest } from "./select/select.ts";
export type {
  ChatMessage,
  HeldSelectionEntry,
  Selection,
  SelectionFallback,
  SelectModel,
  SelectOptions,
} from "./model/select_types.ts";
export { createSemanticRanker } from "./search/semantic.ts";
export type {
  Embedder,
  Reranker,
  SemanticHit,
  SemanticRanker,
  SemanticRankerOptions,
  SemanticRanking,
  SemanticRankOptions,
} from "./model/semantic_types.ts";
export { countTokens, estimateTokens, OTHER_TOKENIZER_HEADROOM } from "./build/tokens.ts";
export type {
  ApprovalOptions,
  ApprovalPolicy,
  ApprovalRecord,
  ApprovalState,
  Catalog,
  CatalogDiagnostic,
  CatalogEntry,
  CreateCatalogOptions,
  EntryKind,
  FeedbackRequest,
  HeldEntry,
  HostFunction,
  HostFunctionContext,
  JsonSchema,
  KeywordDocument,
  KeywordHit,
  KeywordIndex,
  RankedEntry,
  RankOptions,
  RenderedCatalog,
  RenderOptions,
  TokenCounter,
  ToolPreviews,
  ToolTarget,
} from "./model/types.ts";
