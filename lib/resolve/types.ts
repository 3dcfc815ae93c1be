/**
 * Types shared by the priority resolver and its sources.
 *
 * @module
 */

import type { Skill, SkillDiagnostic, SkillFormat } from "../skill/types.ts";
import type { SkillFileInfo } from "../skill/files.ts";
import type { ParseSkillOptions } from "../skill/parse.ts";

/**
 * Parser options the resolver passes through to every source's content:
 * `strict` (refuse a skill with warnings) and `maxBytes` (largest skill document).
 */
export type ResolverParseOptions = Pick<ParseSkillOptions, "strict" | "maxBytes">;

/** Options a source receives on every call. */
export interface SourceCallOptions {
  /** Aborted when the per-source timeout, the overall deadline or the caller's signal fires. */
  signal: AbortSignal;
  /** `peek` only: answer from what is already cached, without any I/O (else `undefined`). */
  cachedOnly?: boolean;
  /**
   * `peek` only: answer `false` for a name the cached listing does not name, even where the source
   * could still serve it unlisted (a `skill://{name}` template). The resolver asks this once another
   * source of the group lists the name: a listed copy is read, not a guess.
   */
  listedOnly?: boolean;
  /**
   * `get` only: the caller lists skills and needs no folder files (`SourceEntry.files`); a source
   * may skip listing them. The resolver's `list` sets it.
   */
  withoutFiles?: boolean;
}

/** Raw skill text as a source holds it; the resolver parses and validates it. */
export interface SourceEntry {
  /** The skill document (Markdown with front matter, or legacy TOML). */
  text: string;
  /** The layout of `text`; detected from the text when omitted. */
  format?: SkillFormat;
  /** Where the text lives (a file path, key or URL), for messages and provenance. */
  location?: string;
  /**
   * Remote content (an MCP server): its `allowed-tools` are kept apart as requested
   * (`Resolution.requestedAllowedTools`), never granted through `skill.allowedTools`.
   */
  remote?: boolean;
  /** A folder skill: where its folder is (a path, key prefix or URI), for people and models. */
  folder?: string;
  /** A folder skill: its files besides the skill document (see `skillFileExclusion`). */
  files?: SkillFileInfo[];
  /** Reads one of `files` by its path; the resolver checks the path is listed first. */
  readFile?(path: string, options: SourceCallOptions): Promise<Uint8Array>;
  /** Sentences about files left out (symlinks, a cap reached), reported as warnings. */
  notes?: string[];
}

/** What {@linkcode SkillFolderAccess.list} returns: the files of one folder skill. */
export interface SkillFolderListing {
  /** Where the folder is, for people and models (an absolute path on disk, a key prefix). */
  folder: string;
  /** Its files besides `SKILL.md`, in path order. */
  files: SkillFileInfo[];
  /** Sentences about what was left out for safety or the caps. */
  notes?: string[];
}

/**
 * How a storage source reaches the supporting files of its folder skills (`x/SKILL.md` plus
 * `x/scripts/…`). The default reads them through the storage's keys as UTF-8 text; the
 * zero-config sources and the skills server use the disk itself, byte for byte.
 *
 * @example Files kept in a map
 * ```ts
 * import { createMemoryStorage, createResolver, createStorageSource } from "@skillmux/core";
 * import type { SkillFolderAccess } from "@skillmux/core/resolve";
 * const bytes = new TextEncoder().encode("print('hi')\n");
 * const files: SkillFolderAccess = {
 *   list: () => Promise.resolve({ folder: "pdf/", files: [{ path: "run.py", size: bytes.length, digest: "sha256:" + "0".repeat(64) }] }),
 *   read: () => Promise.resolve(bytes),
 * };
 * const storage = createMemoryStorage({ initial: { "pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs. Use for PDFs.\n---\n" } });
 * const hit = await createResolver({ sources: [createStorageSource({ label: "user", storage, files })] }).resolve("pdf");
 * console.log(hit.files.map((f) => f.path)); // ["run.py"]
 * ```
 */
export interface SkillFolderAccess {
  /** The files of the folder skill under key prefix `dir` (such as `pdf/`). */
  list(dir: string, options: SourceCallOptions): Promise<SkillFolderListing>;
  /** The bytes of `path` (as listed) in the folder under `dir`. */
  read(dir: string, path: string, options: SourceCallOptions): Promise<Uint8Array>;
}

/**
 * One place skills come from, such as a folder of the user's skills or the
 * built-in set. Sources return raw text; the resolver does the parsing, so every
 * source gets the same size cap and validation.
 *
 * @example A source over a fixed map
 * ```ts
 * import { createResolver, type SkillSource } from "@skillmux/core";
 * const docs: Record<string, string> = {
 *   demo: "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n",
 * };
 * const source: SkillSource = {
 *   label: "team",
 *   get: (name) => Promise.resolve(docs[name] === undefined ? undefined : { text: docs[name] }),
 *   list: () => Promise.resolve(Object.keys(docs)),
 * };
 * const hit = await createResolver({ sources: [source] }).resolve("demo");
 * console.log(hit.source); // "team"
 * ```
 */
export interface SkillSource {
  /** Provenance label: `user`, `community`, `mcp:<server>`, `builtin`, or your own. */
  readonly label: string;
  /** Per-source timeout in milliseconds, overriding the resolver's default. */
  readonly timeoutMs?: number;
  /** The entry for `name`, or `undefined` when this source does not have it. */
  get(name: string, options: SourceCallOptions): Promise<SourceEntry | undefined>;
  /** Every skill name this source has (names may be unchecked; the resolver validates). */
  list(options: SourceCallOptions): Promise<string[]>;
  /**
   * Optional and cheap (a cached listing): whether this source has `name` — `true`, `false`, or
   * `undefined` when it cannot tell without reading. The resolver uses it to skip sources that
   * cannot have a skill and to name the lower sources a winner shadows.
   */
  peek?(name: string, options: SourceCallOptions): Promise<boolean | undefined>;
  /**
   * Optional: what the source can say about its skills without reading their bodies (a server's
   * skills-extension listing, a table built once). The resolver's `list` uses these summaries and
   * reads only the skills left out; a skill's body is read when it is resolved. A summary is
   * trusted as far as a listing is: its `digest` is checked when the skill is read.
   */
  summaries?(options: SourceCallOptions): Promise<SkillSummary[]>;
}

/**
 * One skill as a source's listing describes it, without its body (see `SkillSource.summaries`).
 *
 * @example A summary of a skill
 * ```ts
 * import type { SkillSummary } from "@skillmux/core/resolve";
 * const summary: SkillSummary = {
 *   name: "demo",
 *   description: "Demo skill. Use when testing.",
 *   digest: "sha256:" + "0".repeat(64),
 * };
 * console.log(summary.name);
 * ```
 */
export interface SkillSummary {
  /** The skill name (checked like any listed name). */
  name: string;
  /** What the skill does and when to use it. */
  description: string;
  /** `sha256:<64 hex>` of the skill document's bytes: `Skill.digest` once it is read. */
  digest: string;
  /** Search tags. */
  tags?: string[];
  /** More words for keyword ranking: concepts and example tasks. */
  keywords?: string[];
  /** Example tasks, one per line (also in `keywords`). */
  tasks?: string[];
  /** Where the document lives (a file path, key or URL). */
  location?: string;
  /** `allowed-tools` as the document declares them. */
  allowedTools?: string[];
  /** Remote content: its `allowed-tools` are requested, never granted. */
  remote?: boolean;
}

/** Why a source was skipped or an entry ignored. */
export type ResolveProblem = "invalid" | "warning" | "timeout" | "aborted" | "error";

/** A problem met while resolving; resolution goes on with the next source. */
export interface ResolveDiagnostic {
  /** Label of the source concerned. */
  source: string;
  /** The skill name concerned, when there is one. */
  name?: string;
  /** The kind of problem. */
  problem: ResolveProblem;
  /** A sentence saying what went wrong and what was expected. */
  message: string;
  /** Parser diagnostics, for `invalid` entries. */
  details?: SkillDiagnostic[];
}

/** The answer of {@linkcode Resolver.resolve}. */
export interface Resolution {
  /** The winning skill. */
  skill: Skill;
  /** Label of the source it came from. */
  source: string;
  /** Where in that source (file path, key or URL), when the source said. */
  location?: string;
  /**
   * Labels of lower sources that also have this skill: {@linkcode Resolver.list} asks them all;
   * `resolve` names those whose `peek` says so (MCP servers' listings, the built-ins).
   */
  shadows: string[];
  /** A remote skill's `allowed-tools`: requested, not granted (the skill's own list is empty). */
  requestedAllowedTools?: string[];
  /** Parser warnings for the winning entry, and problems with higher sources that were skipped. */
  diagnostics: ResolveDiagnostic[];
  /**
   * Where the skill's folder is, for a folder skill (`x/SKILL.md`): an absolute path on disk
   * for the folder sources of Deno and Node, a key prefix for other storage, a `skill://` URI for
   * an MCP server. Absent for a single-file skill.
   */
  folder?: string;
  /** The skill's files besides its document, with sizes and digests (empty for a single file). */
  files: SkillFileInfo[];
  /**
   * The bytes of one file of the skill: a path of `files`, or `SKILL.md` for the skill document
   * exactly as the source gave it. Each read is checked against the listed size and digest;
   * throws `SkillFileNotFoundError` for a path that is not listed.
   */
  readFile(path: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
}

/** One row of {@linkcode Resolver.list}. */
export interface ListedSkill {
  /** The skill name. */
  name: string;
  /** Its description, from the winning source. */
  description: string;
  /** Label of the winning source. */
  source: string;
  /** Where in that source, when the source said. */
  location?: string;
  /** Labels of lower sources that have a valid skill of the same name. */
  shadows: string[];
  /** `sha256:<64 hex>` of the winning document's bytes (`Skill.digest`). */
  digest: string;
  /** Search tags of the winning skill. */
  tags: string[];
  /** Concepts and example tasks of the winning skill, for keyword ranking. */
  keywords: string[];
  /** Example tasks of the winning skill (also in `keywords`). */
  tasks: string[];
  /** The winner's granted `allowed-tools` (none for a remote skill: see `requestedAllowedTools`). */
  allowedTools: string[];
  /**
   * The winning skill, parsed (frozen: shared with the resolver's parse cache), when the listing
   * read it. A source with `summaries` (the skills extension, the built-ins) is listed without
   * reading bodies: resolve the name to read it.
   */
  skill?: Skill;
  /** A remote skill's `allowed-tools`: requested, not granted (the skill's own list is empty). */
  requestedAllowedTools?: string[];
}

/** The answer of {@linkcode Resolver.list}. */
export interface SkillListing {
  /** Every skill once, sorted by name. */
  skills: ListedSkill[];
  /** Sources that failed and entries that were invalid. */
  diagnostics: ResolveDiagnostic[];
}

/** Options of a single resolve or list call. */
export interface ResolveOptions {
  /** Cancels the whole call. */
  signal?: AbortSignal;
  /** Overall deadline in milliseconds for this call, across all sources. */
  deadlineMs?: number;
}

/**
 * One tier of the priority chain: a source, or a group of sources that are
 * asked in parallel and answer in the group's order (MCP servers).
 */
export type SourceTier = SkillSource | readonly SkillSource[];

/** A priority chain of skill sources. */
export interface Resolver {
  /** Every source, highest priority first (groups flattened in their order). */
  readonly sources: readonly SkillSource[];
  /** The skill from the highest source that has a valid one; throws `SkillNotFoundError` otherwise. */
  resolve(name: string, options?: ResolveOptions): Promise<Resolution>;
  /** Every skill once, with its winning source and the sources it shadows. */
  list(options?: ResolveOptions): Promise<SkillListing>;
}
