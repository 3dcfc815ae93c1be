/**
 * skillmux: the right skills and tools for an LLM request, from many sources.
 *
 * This entry is isomorphic: it uses web-standard globals only and runs on Deno,
 * Node and in browsers. It holds what the README's path needs, in one screen:
 * the resolver and its sources, provenance, storage's interface and memory
 * adapter, `connect`, the server registry, the catalog, selection and prompt
 * assembly, with their main types and errors. The names are listed one by one
 * (a snapshot test holds the list, so growth is a decision). Each layer in full
 * has its own entry, where the rest of its names live:
 * `@skillmux/core/resolve` (sources, listings, skill resources, errors),
 * `@skillmux/core/storage` (keys, errors), `@skillmux/core/skill` (the skill
 * format: parse, lint, render), `@skillmux/core/mcp` (the MCP client: wire
 * types, transports, config formats, registry records, secret boxes, the skills
 * extension, every error), `@skillmux/core/catalog` (approvals, keyword and
 * semantic ranking, tool search, evaluation, token counts),
 * `@skillmux/core/prompt` (tool formats, tool discovery), `@skillmux/core/llm`
 * (chat, embedding and rerank HTTP adapters), and the runtime-specific ones
 * (`./fs`, `./stdio`, `./indexed-db`, …; docs/architecture.md lists them all).
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

// A skill, as a resolution carries it (the format in full: @skillmux/core/skill).
export type { Skill, SkillExample } from "./skill/types.ts";

// The resolver and its sources (in full: @skillmux/core/resolve).
export { createResolver, type CreateResolverOptions } from "./resolve/resolver.ts";
export type {
  ListedSkill,
  Resolution,
  ResolveDiagnostic,
  ResolveOptions,
  Resolver,
  SkillListing,
  SkillSource,
} from "./resolve/types.ts";
export {
  closeSkillResolvers,
  createDefaultSources,
  listSkills,
  resolveSkill,
} from "./resolve/default_sources.ts";
export type { DefaultSourcesOptions } from "./resolve/default_options.ts";
export { createStorageSource, type StorageSourceOptions } from "./resolve/storage_source.ts";
export { type BuiltinSourceOptions, createBuiltinSource } from "./resolve/builtin_source.ts";
export {
  createMcpSkillSource,
  createMcpSkillSources,
  type McpSkillSource,
  type McpSkillSourceOptions,
} from "./resolve/mcp_source.ts";
export {
  isSkillNotFoundError,
  ResolveError,
  type ResolveErrorCode,
  SkillNotFoundError,
} from "./resolve/errors.ts";

// Provenance: where a skill came from.
export {
  isRemoteProvenance,
  mcpProvenance,
  parseProvenance,
  type Provenance,
} from "./resolve/provenance.ts";

// Storage: the interface, the memory adapter, the error (in full: @skillmux/core/storage).
export type { Storage } from "./storage/types.ts";
export { createMemoryStorage } from "./storage/memory.ts";
export { isStorageError, StorageError, type StorageErrorCode } from "./storage/errors.ts";

// MCP: connect, the client, the error (in full: @skillmux/core/mcp).
export { connect } from "./mcp/client/client.ts";
export type { McpClient } from "./mcp/client/client_types.ts";
export type { ConnectOptions } from "./mcp/client/connect_options.ts";
export type { CallToolResult, McpServerConfig, Tool } from "./mcp/protocol/types.ts";
export { isMcpError, McpError, type McpErrorCode } from "./mcp/protocol/errors.ts";

// The server registry (records, config formats and the rest: @skillmux/core/mcp).
export { createServerRegistry, type ServerRegistryOptions } from "./mcp/registry/registry.ts";
export type { AddServerOptions, ServerRegistry } from "./mcp/registry/types.ts";
export type { RegisteredServer } from "./mcp/registry/records.ts";
export { ConflictError, isConflictError } from "./mcp/registry/errors.ts";

// The catalog: skills, tools and host functions as one list (in full: @skillmux/core/catalog).
export { createCatalog } from "./catalog/build/catalog.ts";
export type {
  Catalog,
  CatalogEntry,
  CreateCatalogOptions,
  HostFunction,
  RankedEntry,
  RenderedCatalog,
} from "./catalog/model/types.ts";

// Selection: one LLM call picks what a request needs (model adapters: @skillmux/core/llm).
export { selectForRequest } from "./catalog/select/select.ts";
export type { Selection, SelectModel, SelectOptions } from "./catalog/model/select_types.ts";

// Prompt assembly and executing a model's tool call (in full: @skillmux/core/prompt).
export { assemblePrompt } from "./prompt/assemble.ts";
export { executeToolCall } from "./prompt/execute.ts";
export type {
  AssembledPrompt,
  AssemblePromptOptions,
  ToolCall,
  ToolCallResult,
} from "./prompt/types.ts";
