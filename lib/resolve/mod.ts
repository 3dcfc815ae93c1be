/**
 * The priority skill resolver in full (`@skillmux/core/resolve`): sources in
 * order, first valid hit wins; the default chain and its folders, each kind of
 * source, listings and summaries, a skill's files, provenance and the errors.
 * `.` holds the names most apps need. Under Deno, importing `.` as well lets the
 * built-in skill texts load without `--allow-read` (lib/mod_deno.ts).
 *
 * @example The default chain's folders, and the first valid hit
 * ```ts
 * import { defaultSkillFolders, resolveSkill } from "@skillmux/core/resolve";
 * console.log(await defaultSkillFolders({ env: { HOME: "/home/ada" } }));
 * console.log((await resolveSkill("samtools")).source);
 * ```
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
