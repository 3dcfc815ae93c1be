/**
 * The registry index, the lock file and the results of the community installer.
 *
 * @module
 */

import type { UrlPolicyOptions } from "../mcp/policy/url.ts";
import type { SkillDiagnostic } from "../skill/types.ts";

/** A supporting file of a folder skill, as the index lists it. */
export interface RegistryFile {
  /** Path inside the skill folder, e.g. `scripts/extract.py` (no `..`, no leading `/`). */
  path: string;
  /** Where to download it: absolute, or relative to the index URL. */
  url: string;
  /** `sha256:<64 hex>` of its bytes. */
  digest: string;
}

/** One skill of a registry index. */
export interface RegistryEntry {
  /** The skill name (lowercase ASCII, as the skill's front matter gives it). */
  name: string;
  /** What it does and when to use it. */
  description: string;
  /** The version the registry serves, e.g. `1.2.0`. */
  version: string;
  /** `sha256:<64 hex>` of the skill document's bytes. */
  digest: string;
  /** Where to download the skill document: absolute, or relative to the index URL. */
  url: string;
  /** Supporting files: present for a folder skill, installed as `<name>/SKILL.md` plus these. */
  files?: RegistryFile[];
}

/** A registry index after checking: usable entries by name, and the entries left out. */
export interface RegistryIndex {
  /** The URL of the index document. */
  url: string;
  /** Usable entries by name. */
  skills: Map<string, RegistryEntry>;
  /** Why entries were left out (a bad name, a name listed twice, a missing field). */
  problems: IndexProblem[];
}

/** An index entry left out, and why. */
export interface IndexProblem {
  /** The name the entry gave, when it gave one. */
  name?: string;
  /** 0-based position in the index's `skills` array. */
  index: number;
  /** A sentence saying what is wrong. */
  message: string;
}

/** Where an installed skill came from. */
export type LockSourceType = "registry" | "git" | "path" | "well-known";

/** What the lock file records about one installed skill. */
export interface LockEntry {
  /** The skill's name. */
  name: string;
  /**
   * Where it was installed from: the registry's or the discovery index's URL, the git
   * repository's URL or path, or the folder's absolute path.
   */
  source: string;
  /** The kind of source; absent in lock files written before it existed (a registry). */
  sourceType?: LockSourceType;
  /** The version installed (registries and discovery indexes that give one). */
  version?: string;
  /** git: the ref asked for (`#main`, `#v1.2.0`, a commit), absent for the default branch. */
  ref?: string;
  /** git: the commit installed (40 hex). */
  commit?: string;
  /** git and paths: the skill's folder inside the source, `/`-separated (`skills/pdf`). */
  skillPath?: string;
  /** Hex sha256 of the installed skill document. */
  sha256: string;
  /** Hex sha256 of each supporting file, by path. */
  files?: Record<string, string>;
  /** Discovery indexes: hex sha256 of the artifact downloaded (the SKILL.md or the archive). */
  artifact?: string;
  /** ISO 8601 time of the install. */
  installedAt: string;
}

/** Options every installer call takes. */
export interface InstallerOptions {
  /** The registry: a base URL (`<url>/index.json` is the index) or the URL of a `.json` index. */
  registry?: string | URL;
  /** The community skills folder to install into. */
  communityDir: string;
  /** Which URLs may be contacted: the MCP servers' URL policy. Default: https, http only to loopback. */
  urlPolicy?: UrlPolicyOptions;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request timeout in milliseconds, each attempt. Default 15 000. */
  timeoutMs?: number;
  /** Retries after a network error or a 408/429/5xx answer. Default 2. */
  retries?: number;
  /** Largest skill document or supporting file, in bytes. Default 4 MiB. */
  maxFileBytes?: number;
  /** Largest index document, in bytes. Default 8 MiB. */
  maxIndexBytes?: number;
  /** Show what would change and write nothing. */
  dryRun?: boolean;
  /** Replace a skill the lock file does not know, or one edited since it was installed. */
  force?: boolean;
  /** Cancels the work. */
  signal?: AbortSignal;
}

/** One change the installer made (or, with `dryRun`, would make). */
export interface InstallChange {
  /** The skill's name. */
  name: string;
  /** What happened to it. */
  action: "install" | "update" | "unchanged" | "uninstall";
  /** The version before, for `update`, `unchanged` and `uninstall`. */
  from?: string;
  /** The version after, for `install`, `update` and `unchanged`. */
  to?: string;
  /** Where the skill lives in the community folder, e.g. `kraken2.md` or `pdf-tools/SKILL.md`. */
  path: string;
}

/** What an installer call did. */
export interface InstallResult {
  /** One entry per skill asked for (or, for `updateSkills()` with no names, per locked skill). */
  changes: InstallChange[];
  /** `true` when nothing was written (`dryRun`). */
  dryRun: boolean;
  /** `updateSkills`: skills of a git, folder or index source that could not be updated, and why. */
  refused?: Array<{ name: string; reason: string }>;
}

/** Options of `addSkills`. */
export interface AddSkillsOptions {
  /** The folder to add into: the user or the community skills folder. */
  into: string;
  /** Replace a skill of the same name that is there with other content. */
  force?: boolean;
  /** Check and report; write nothing. */
  dryRun?: boolean;
  /** Most files per skill (besides `SKILL.md`). Default 1000. */
  maxFiles?: number;
  /** Most bytes per skill, all files together. Default 50 MiB. */
  maxBytes?: number;
  /** Take only these skills of a collection (by file or folder name). */
  only?: readonly string[];
  /** What the lock file records as the source (default: the path itself, `sourceType: "path"`). */
  origin?: Pick<LockEntry, "source" | "sourceType" | "version" | "ref" | "commit" | "artifact">;
  /** Cancels the work between files. */
  signal?: AbortSignal;
}

/** What became of one skill of an `addSkills` call. */
export interface SkillVerdict {
  /** The skill's name (the name it installs under; for a refused skill, its file or folder). */
  name: string;
  /** `install`, `update` (replaced with `force`), `unchanged` (same bytes) or `refused`. */
  action: "install" | "update" | "unchanged" | "refused";
  /** Why it was refused. */
  reason?: string;
  /** Where it is (or would be) in the folder added into, e.g. `pdf/SKILL.md`. */
  path?: string;
  /** Supporting files copied with it. */
  files: number;
  /** Bytes of the document and its files. */
  bytes: number;
  /** Parser warnings (and, for a refused skill, the parse errors). */
  diagnostics: SkillDiagnostic[];
  /** What `lintSkill` says of it, its files known. */
  lint: SkillDiagnostic[];
  /** Files of its folder the file rule leaves out (`.env`, `.git/`), with the reason. */
  excluded: Array<{ path: string; reason: string }>;
}

/** What `addSkills` did. */
export interface AddSkillsResult {
  /** `skill`: the path was one skill; `collection`: a folder of skills. */
  kind: "skill" | "collection";
  /** One verdict per skill, in path order. */
  skills: SkillVerdict[];
  /** Why the search of a collection stopped short or skipped something (symlinks). */
  notes: string[];
  /** `true` when nothing was written. */
  dryRun: boolean;
}
