/**
 * The catalog: skills, MCP tools and host functions as one list, keyword
 * ranking, compact rendering within a token budget, approvals, and one-call
 * LLM selection with its OpenAI and Anthropic adapters.
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
export { createAnthropicModel, createOpenAiModel } from "./llm/llm.ts";
export { isLlmError, LlmError } from "./llm/llm_error.ts";
export { selectForRequest } from "./select/select.ts";
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
} from "./model/select_types.ts";
export { createSemanticRanker } from "./search/semantic.ts";
export { createEmbeddingEndpoint, createRerankEndpoint } from "./llm/semantic_endpoints.ts";
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
