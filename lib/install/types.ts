/**
 * The registry index, the lock file and the results of the community installer.
 *
 * @module
 */

import type { UrlPolicyOptions } from "../mcp/policy/url.ts";

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

/** What the lock file records about one installed skill. */
export interface LockEntry {
  /** The skill's name. */
  name: string;
  /** The index URL it was installed from. */
  source: string;
  /** The version installed. */
  version: string;
  /** Hex sha256 of the installed skill document. */
  sha256: string;
  /** Hex sha256 of each supporting file, by path. */
  files?: Record<string, string>;
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
}
