/**
 * Community install (Deno/Node): install, update, uninstall and search skills
 * from a registry — a base URL serving `index.json` (name, description,
 * version, sha256 digest and URL of each skill, plus the supporting files of
 * folder skills) — into the community folder, with a lock file, digest
 * checks, atomic writes and the MCP servers' URL policy.
 *
 * @example
 * ```ts
 * import { installSkills } from "@skillmux/core/install";
 * await installSkills(["kraken2"], {
 *   registry: "https://skills.example.org",
 *   communityDir: "/tmp/skillmux-community",
 * }).catch((error) => console.log(error.code, error.message));
 * ```
 *
 * @module
 */

export {
  InstallError,
  type InstallErrorCode,
  type InstallErrorOptions,
  isInstallError,
} from "./errors.ts";
export { fetchRegistryIndex, registryIndexUrl } from "./registry.ts";
export { installSkills, uninstallSkills, updateSkills } from "./install.ts";
export {
  searchSkills,
  type SearchSkillsOptions,
  type SkillSearchHit,
  type SkillSearchResult,
} from "./search.ts";
export { defaultRegistry } from "./config.ts";
export { readLockFile } from "./lock.ts";
export { addSkills } from "./local.ts";
export {
  installFromSource,
  parseSkillSource,
  type SkillSourceSpec,
  type SourceInstallOptions,
  type SourceInstallResult,
} from "./source.ts";
export type {
  AddSkillsOptions,
  AddSkillsResult,
  IndexProblem,
  InstallChange,
  InstallerOptions,
  InstallResult,
  LockEntry,
  LockSourceType,
  RegistryEntry,
  RegistryFile,
  RegistryIndex,
  SkillVerdict,
} from "./types.ts";
