/**
 * The priority skill resolver: sources in order, first valid hit wins.
 *
 * @module
 */

export {
  builtinSkillNames,
  type BuiltinSkillTable,
  type BuiltinSourceOptions,
  createBuiltinSource,
} from "./builtin_source.ts";
export type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";
export {
  closeSkillResolvers,
  createDefaultSources,
  defaultSkillFolders,
  listSkills,
  resolveSkill,
} from "./default_sources.ts";
export {
  isSkillFileError,
  isSkillNotFoundError,
  ResolveError,
  type ResolveErrorCode,
  SkillFileError,
  SkillNotFoundError,
} from "./errors.ts";
export {
  isRemoteProvenance,
  mcpProvenance,
  parseProvenance,
  type Provenance,
  type ProvenanceParts,
} from "./provenance.ts";
export {
  createMcpSkillSource,
  createMcpSkillSources,
  type McpSkillSource,
  type McpSkillSourceOptions,
} from "./mcp_source.ts";
export {
  createResolver,
  type CreateResolverOptions,
  DEFAULT_SOURCE_TIMEOUT_MS,
} from "./resolver.ts";
export {
  hasSkillTemplate,
  skillNameOf,
  type SkillResource,
  skillResources,
} from "./skill_resources.ts";
export { createStorageSource, type StorageSourceOptions } from "./storage_source.ts";
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
} from "./types.ts";
