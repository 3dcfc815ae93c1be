/**
 * skillmux: the right skills and tools for an LLM request, from many sources.
 *
 * This entry is isomorphic: it uses web-standard globals only and runs on Deno,
 * Node and in browsers. It holds what an application needs: the skill format's
 * essentials, storage, the resolver and its sources, the MCP client and server
 * registry, the catalog, selection and prompt assembly, with their types and
 * errors. The names are listed one by one (a snapshot test holds the list, so
 * growth is a decision). Plumbing and runtime-specific parts have their own
 * entries: `@skillmux/core/mcp` (the MCP client in full: wire types, transports,
 * config formats, record helpers, secret boxes, the skills extension),
 * `@skillmux/core/policy` (URL and header policy), `@skillmux/core/skill` (the
 * skill format in full), `@skillmux/core/llm` (chat, embedding and rerank HTTP
 * adapters), `@skillmux/core/fs` (filesystem storage, Deno/Node),
 * `@skillmux/core/stdio` (MCP over stdio, Deno/Node),
 * `@skillmux/core/indexed-db` (browser storage) and more (docs/architecture.md).
 *
 * @example Resolve a skill with zero configuration
 * ```ts
 * import { resolveSkill } from "@skillmux/core";
 * const hit = await resolveSkill("samtools");
 * console.log(hit.source); // "user", "community" or "builtin"
 * console.log(hit.skill.examples[0]);
 * ```
 *
 * @module
 */

// The skill format: parse, lint, render (the rest: @skillmux/core/skill).
export type {
  ParsedSkill,
  ParseSkillOptions,
  Skill,
  SkillDiagnostic,
  SkillExample,
  SkillFormat,
} from "./skill/types.ts";
export { parseSkill, safeParseSkill, type SafeParseSkillResult } from "./skill/parse.ts";
export { renderSkill, type RenderSkillOptions, renderSkillSections } from "./skill/render.ts";
export { isLintClean, lintSkill } from "./skill/lint.ts";
export type { LintSkillOptions } from "./skill/lint.ts";
export { type SkillKind, skillKind } from "./skill/kind.ts";
export { isValidSkillName, normalizeSkillName } from "./skill/name.ts";
export {
  InvalidSkillNameError,
  isInvalidSkillNameError,
  isSkillParseError,
  SkillParseError,
  type SkillParseErrorCode,
  type SkillParseErrorOptions,
} from "./skill/errors.ts";

// Storage: the interface, the memory adapter, keys and errors.
export type { Storage, StorageCallOptions, StorageVersion } from "./storage/types.ts";
export { createMemoryStorage, type MemoryStorageOptions } from "./storage/memory.ts";
export {
  assertStorageKey,
  InvalidStorageKeyError,
  isInvalidStorageKeyError,
  isValidStorageKey,
} from "./storage/key.ts";
export {
  isStorageDisposedError,
  isStorageError,
  isStoragePathError,
  StorageDisposedError,
  StorageError,
  type StorageErrorCode,
  type StorageErrorOptions,
  StoragePathError,
} from "./storage/errors.ts";

// MCP: connect, the result types, the errors (the rest: @skillmux/core/mcp).
export { connect } from "./mcp/client/client.ts";
export type {
  CallOptions,
  McpClient,
  RequestOptions,
  TaskInfo,
  TaskStatus,
} from "./mcp/client/client_types.ts";
export type { ConnectOptions, ServerHint, StdioConnector } from "./mcp/client/connect_options.ts";
export type {
  ClientCapabilities,
  ClientHandlers,
  CreateMessageParams,
  CreateMessageResult,
  ElicitField,
  ElicitRequestParams,
  ElicitResult,
  Root,
  ServerRequestContext,
} from "./mcp/client/client_handlers.ts";
export type { HttpTransportOptions } from "./mcp/transport/http_options.ts";
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Implementation,
  McpServerConfig,
  Progress,
  Prompt,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "./mcp/protocol/types.ts";
export {
  CircuitOpenError,
  HttpError,
  isMcpError,
  McpError,
  type McpErrorCode,
  type McpErrorName,
  type McpErrorOptions,
  NetworkError,
  PolicyError,
  ProtocolError,
  ResponseTooLargeError,
  RpcError,
  SessionExpiredError,
  SkillVerificationError,
  type SkillVerificationReason,
  StreamEndedError,
  TimeoutError,
  UnsupportedProtocolVersionError,
} from "./mcp/protocol/errors.ts";
export { isOAuthError, OAuthError, type OAuthErrorCode } from "./mcp/auth/errors.ts";

// The server registry.
export { createServerRegistry, type ServerRegistryOptions } from "./mcp/registry/registry.ts";
export type {
  AddServerOptions,
  CheckServersOptions,
  PingFailure,
  PingResult,
  RefreshResult,
  RegistryChange,
  ServerRegistry,
  UpdateServerOptions,
} from "./mcp/registry/types.ts";
export type {
  RegisteredServer,
  ServerPatch,
  ServerScope,
  ServerStatus,
} from "./mcp/registry/records.ts";
export {
  ConflictError,
  ForbiddenError,
  isConflictError,
  isForbiddenError,
} from "./mcp/registry/errors.ts";
export type { SecretKeyMaterial, SecretKeySource } from "./mcp/sealing/secrets.ts";
export { isSecretKeyError, SecretKeyError } from "./mcp/sealing/errors.ts";

// The resolver and its sources.
export {
  createResolver,
  type CreateResolverOptions,
  DEFAULT_SOURCE_TIMEOUT_MS,
} from "./resolve/resolver.ts";
export type {
  ListedSkill,
  Resolution,
  ResolveDiagnostic,
  ResolveOptions,
  ResolveProblem,
  Resolver,
  ResolverParseOptions,
  SkillFolderAccess,
  SkillFolderListing,
  SkillListing,
  SkillSource,
  SkillSummary,
  SourceCallOptions,
  SourceEntry,
  SourceTier,
} from "./resolve/types.ts";
export {
  closeSkillResolvers,
  createDefaultSources,
  defaultSkillFolders,
  listSkills,
  resolveSkill,
} from "./resolve/default_sources.ts";
export type { DefaultSkillFolders, DefaultSourcesOptions } from "./resolve/default_options.ts";
export { createStorageSource, type StorageSourceOptions } from "./resolve/storage_source.ts";
export {
  builtinSkillNames,
  type BuiltinSkillTable,
  type BuiltinSourceOptions,
  createBuiltinSource,
} from "./resolve/builtin_source.ts";
export {
  createMcpSkillSource,
  createMcpSkillSources,
  type McpSkillSource,
  type McpSkillSourceOptions,
} from "./resolve/mcp_source.ts";
export {
  hasSkillTemplate,
  skillNameOf,
  type SkillResource,
  skillResources,
} from "./resolve/skill_resources.ts";
export {
  isSkillFileError,
  isSkillNotFoundError,
  ResolveError,
  type ResolveErrorCode,
  SkillFileError,
  SkillNotFoundError,
} from "./resolve/errors.ts";
export {
  isRemoteProvenance,
  mcpProvenance,
  parseProvenance,
  type Provenance,
  type ProvenanceParts,
} from "./resolve/provenance.ts";

// The catalog: skills, tools and host functions as one list; ranking; token counts.
export { createCatalog } from "./catalog/build/catalog.ts";
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
} from "./catalog/model/types.ts";
export { createKeywordIndex } from "./catalog/search/keyword.ts";
export { countTokens, estimateTokens, OTHER_TOKENIZER_HEADROOM } from "./catalog/build/tokens.ts";
export { findTools, type FindToolsOptions, type FoundTool } from "./catalog/search/find_tools.ts";
export {
  findHeldTools,
  type FindHeldToolsOptions,
  type HeldTool,
  heldToolsNotice,
  type HeldToolsNoticeOptions,
} from "./catalog/search/held_tools.ts";
export { createSemanticRanker } from "./catalog/search/semantic.ts";
export type {
  Embedder,
  Reranker,
  SemanticHit,
  SemanticRanker,
  SemanticRankerOptions,
  SemanticRanking,
  SemanticRankOptions,
} from "./catalog/model/semantic_types.ts";

// Selection: one LLM call picks what a request needs (model adapters: @skillmux/core/llm).
export { selectForRequest } from "./catalog/select/select.ts";
export type {
  ChatMessage,
  HeldSelectionEntry,
  Selection,
  SelectionFallback,
  SelectModel,
  SelectOptions,
} from "./catalog/model/select_types.ts";
export {
  type EvaluatedRequest,
  type EvaluateOptions,
  evaluateSelection,
  type Evaluation,
  type LabelledRequest,
  parseLabelledRequests,
} from "./catalog/select/evaluate.ts";

// Prompt assembly, tool discovery and executing a model's tool call.
export { assemblePrompt } from "./prompt/assemble.ts";
export { executeToolCall } from "./prompt/execute.ts";
export { createToolDiscovery } from "./prompt/discovery.ts";
export type {
  AnthropicDiscoveryTool,
  ToolDiscovery,
  ToolDiscoveryOptions,
} from "./prompt/discovery_types.ts";
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
} from "./prompt/types.ts";
