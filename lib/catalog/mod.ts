/**
 * The catalog: skills, MCP tools and host functions as one list, keyword
 * ranking, compact rendering within a token budget, approvals, and one-call
 * LLM selection with its OpenAI and Anthropic adapters.
 *
 * @module
 */

export { createCatalog } from "./catalog.ts";
export {
  type EvaluatedRequest,
  type EvaluateOptions,
  evaluateSelection,
  type Evaluation,
  type LabelledRequest,
  parseLabelledRequests,
} from "./evaluate.ts";
export { findTools, type FindToolsOptions, type FoundTool } from "./find_tools.ts";
export {
  findHeldTools,
  type FindHeldToolsOptions,
  type HeldTool,
  heldToolsNotice,
  type HeldToolsNoticeOptions,
} from "./held_tools.ts";
export { createKeywordIndex } from "./keyword.ts";
export { createAnthropicModel, createOpenAiModel } from "./llm.ts";
export { isLlmError, LlmError } from "./llm_error.ts";
export { selectForRequest } from "./select.ts";
export type {
  AnthropicModelOptions,
  ChatMessage,
  HeldSelectionEntry,
  LlmHttpOptions,
  OpenAiModelOptions,
  Selection,
  SelectionFallback,
  SelectModel,
  SelectOptions,
} from "./select_types.ts";
export { createSemanticRanker } from "./semantic.ts";
export { createEmbeddingEndpoint, createRerankEndpoint } from "./semantic_endpoints.ts";
export type {
  Embedder,
  EndpointOptions,
  RerankEndpointOptions,
  Reranker,
  SemanticHit,
  SemanticRanker,
  SemanticRankerOptions,
  SemanticRanking,
  SemanticRankOptions,
} from "./semantic_types.ts";
export { countTokens, estimateTokens, OTHER_TOKENIZER_HEADROOM } from "./tokens.ts";
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
} from "./types.ts";
