/**
 * The data model of the catalog: entries (skills, MCP tools, host functions),
 * host functions as an application registers them, and the catalog itself.
 *
 * @module
 */

// Long because: the catalog's data model is read in one place, the file `.` and `./catalog`
// re-export: entries, host functions, the catalog and its options, the keyword index's and the
// approvals' types. Over half its lines are the JSDoc of fields.

import type { Resolution } from "../resolve/types.ts";
import type { McpClient } from "../mcp/client/client_types.ts";
import type { McpServerConfig, Tool } from "../mcp/protocol/types.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { RegisteredServer } from "../mcp/registry/records.ts";
import type { Resolver } from "../resolve/types.ts";
import type { Storage } from "../storage/types.ts";

/** The three kinds of entry. */
export type EntryKind = "skill" | "tool" | "function";

/** A JSON Schema object (tool input schemas). */
export type JsonSchema = Record<string, unknown>;

/** Where an entry stands with the approvals (see {@linkcode ApprovalOptions}). */
export type ApprovalState = "approved" | "pending" | "changed";

/** One skill, MCP tool or host function, as the catalog lists it. */
export interface CatalogEntry {
  /** Unique in the catalog and a valid tool name for OpenAI and Anthropic (`^[a-zA-Z0-9_-]{1,64}$`). */
  id: string;
  /** Skill, MCP tool or host function. */
  kind: EntryKind;
  /** The skill name, the tool's name on its server, or the function name. */
  name: string;
  /** A display title, when the source gave one (cleaned). */
  title?: string;
  /** One line: what it does (cleaned, capped). */
  description: string;
  /** Provenance: `user`, `community`, `builtin`, `mcp:<server>` or `host`. */
  source: string;
  /** MCP tools: the server's registered name. */
  server?: string;
  /** Search tags (skills; host functions may set them). */
  tags: string[];
  /** More words for keyword ranking: a skill's concepts and example tasks, a tool's parameters. */
  keywords: string[];
  /** MCP tools: a server must be connected before the tool can run. */
  needsConnection: boolean;
  /** Whether the text came from a remote server (untrusted: fenced in prompts). */
  remote: boolean;
  /** `sha256:<hex>` of the full definition as the source gave it (before cleaning). */
  digest: string;
  /** Tools and functions: the JSON Schema of the arguments. */
  inputSchema?: JsonSchema;
  /** Skills: where in the source (file path, key or URI). */
  location?: string;
  /**
   * Skills whose text enters prompts fenced as untrusted data and checked for text that addresses
   * the model: remote (`mcp:*`) skills, and community skills (installed from a registry, which
   * controls both the file and its digest) unless the catalog trusts them (`trustCommunity`).
   */
  fenced?: boolean;
  /** Remote skills: the `allowed-tools` they ask for (never granted by the catalog). */
  requestedTools?: string[];
  /**
   * Remote entries: why their text (before cleaning) seems to address the model, if it does. For
   * tools each reason says where: `its description …` or `its input schema at <path> …` (every
   * string of the schema, at any depth).
   */
  flags?: string[];
  /** Approved, or held out of prompts until approved (`pending` first sight, `changed` since approval). */
  approval: ApprovalState;
  /**
   * MCP tools: listed from a preview (an MCP registry's or a server card's word for what the
   * server has, see {@linkcode CreateCatalogOptions.previews}) because the server was never
   * connected. Always held until approved, whatever the policy; the server connects only when
   * the tool is selected or called, and its real definition replaces the preview from then on.
   */
  preview?: boolean;
}

/** The tools a server says it has before it is connected (an MCP registry's preview). */
export type ToolPreviews = (
  server: RegisteredServer,
) => Promise<readonly Tool[] | undefined> | readonly Tool[] | undefined;

/** What a host function's handler receives besides its arguments. */
export interface HostFunctionContext {
  /** Aborted when the caller gives up. */
  signal: AbortSignal;
}

/**
 * A function of the embedding application offered to the model as a tool.
 *
 * @example
 * ```ts
 * import type { HostFunction } from "@skillmux/core";
 * const lookup: HostFunction = {
 *   name: "lookup_sample",
 *   description: "Find a sample's FASTQ files by sample id",
 *   inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
 *   handler: ({ id }) => ({ files: [`${id}_R1.fastq.gz`, `${id}_R2.fastq.gz`] }),
 * };
 * console.log(lookup.name);
 * ```
 */
export interface HostFunction {
  /** The tool name: 1–64 letters, digits, `_` and `-`. */
  name: string;
  /** What it does and when to use it. */
  description: string;
  /** JSON Schema of the arguments (default: an object with no properties). */
  inputSchema?: JsonSchema;
  /** Extra search tags. */
  tags?: string[];
  /** Runs the function; the value is returned to the model (strings as is, other values as JSON). */
  handler(args: Record<string, unknown>, context: HostFunctionContext): unknown;
}

/** Counts the tokens of a text (see `countTokens`). */
export type TokenCounter = (text: string) => number | Promise<number>;

/** Options of {@linkcode Catalog.render}. */
export interface RenderOptions {
  /** Most tokens for the rendering; entries least relevant to `request` are left out. */
  budget?: number;
  /** Ranks entries when the budget forces some out (without it, the last in order go). */
  request?: string;
  /** Token counter (default `countTokens`: o200k from gpt-tokenizer, loaded on first use). */
  countTokens?: TokenCounter;
}

/** What {@linkcode Catalog.render} returns. */
export interface RenderedCatalog {
  /** The compact listing: one line per entry, grouped, deterministic. */
  text: string;
  /** Its token count. */
  tokens: number;
  /** The ids listed, in the order shown. */
  ids: string[];
  /** How many usable entries were left out for the budget. */
  omitted: number;
}

/** One row of {@linkcode Catalog.rank}. */
export interface RankedEntry {
  /** The entry. */
  entry: CatalogEntry;
  /** BM25+ score; higher is better. Only comparable within one query. */
  score: number;
  /** How much of the query's specific wording the entry holds (see {@linkcode KeywordHit.evidence}). */
  evidence: number;
}

/** Options of {@linkcode Catalog.rank}. */
export interface RankOptions {
  /** Most rows (default 10). */
  limit?: number;
  /** Only these kinds (default all). */
  kinds?: readonly EntryKind[];
}

/** A problem met while building the catalog; the rest of the catalog is still usable. */
export interface CatalogDiagnostic {
  /** The source concerned: `resolver`, `mcp:<server>`, `host`, `approvals` or `feedback`. */
  source: string;
  /**
   * The kind of problem: `timeout` is a server that did not answer in time (slow, not down),
   * `unreachable` one that failed to connect or answer, `invalid` content that does not parse.
   */
  problem: "unreachable" | "timeout" | "stale" | "invalid" | "collision" | "pending" | "changed";
  /** A sentence saying what happened. */
  message: string;
  /** The entry concerned, when there is one. */
  id?: string;
}

/** One labelled request of {@linkcode CreateCatalogOptions.feedback}. */
export interface FeedbackRequest {
  /** The request as a user typed it. */
  request: string;
  /** The ids it is labelled with, or `"none"` (not used for ranking). */
  expected: readonly string[] | "none";
}

/** An entry kept out of rendering, ranking and prompts until approved. */
export interface HeldEntry {
  /** The entry (its `approval` says why). */
  entry: CatalogEntry;
  /** For `changed` entries: a line diff of the definition since it was approved. */
  diff?: string;
  /**
   * Held skills: the source whose approved version of the skill answers under this id until
   * this one is approved (the next source in priority order that has it approved).
   */
  standIn?: string;
}

/** Where an MCP tool of the catalog runs. */
export interface ToolTarget {
  /** The tool as its server listed it. */
  tool: Tool;
  /** The server's configuration (registry servers). */
  server?: McpServerConfig;
  /** An open client (servers given to the catalog already connected). */
  client?: McpClient;
}

/**
 * Skills, MCP tools and host functions as one list, built once and refreshed
 * on demand (and after the registry changes). See `createCatalog`.
 */
export interface Catalog {
  /** Usable (approved) entries: skills, then MCP tools, then functions, each sorted by id. */
  readonly entries: readonly CatalogEntry[];
  /** Entries held back until approved. */
  readonly held: readonly HeldEntry[];
  /** Changes whenever any entry or approval changes. */
  readonly version: string;
  /** Problems met while building. */
  readonly diagnostics: readonly CatalogDiagnostic[];
  /** A usable entry by id. */
  get(id: string): CatalogEntry | undefined;
  /** Usable entries ranked for `query` by BM25+ over names, titles, descriptions, tags and keywords. */
  rank(query: string, options?: RankOptions): RankedEntry[];
  /** The compact listing for a prompt, within a token budget. */
  render(options?: RenderOptions): Promise<RenderedCatalog>;
  /** Approve entries by id (held or not): record their digests and release them into prompts. */
  approve(ids: readonly string[]): Promise<void>;
  /** Rebuild from the sources; concurrent calls share one rebuild. */
  refresh(options?: { signal?: AbortSignal }): Promise<void>;
  /** A skill's full text, from the resolver (only when asked: progressive disclosure). */
  loadSkill(id: string, options?: { signal?: AbortSignal }): Promise<Resolution>;
  /** The host function behind a `function` entry. */
  hostFunction(id: string): HostFunction | undefined;
  /** Where a `tool` entry runs. */
  toolTarget(id: string): ToolTarget | undefined;
  /** Stop following registry changes. */
  dispose(): void;
}

/** Options of {@linkcode createCatalog}. */
export interface CreateCatalogOptions {
  /** Skills: the winning skill per name, summary only (e.g. `createResolver({ sources })`). */
  resolver?: Resolver;
  /** MCP tools of the registered, enabled servers, from the registry's discovery cache. */
  registry?: ServerRegistry;
  /** MCP tools of servers you have already connected (listed now; no connection needed later). */
  clients?: readonly McpClient[];
  /** Functions of your application offered as tools. */
  functions?: readonly HostFunction[];
  /** Where approvals are recorded and the policies (default: in memory, default policies). */
  approvals?: ApprovalOptions;
  /**
   * Where the keyword index is kept between processes (default: only in this process). Each
   * source's part of the index is saved under the digest of its entries, so a new process whose
   * sources did not change loads it instead of indexing every entry again (the CLI keeps it in
   * its config folder). The newest 64 parts are kept; a storage that fails only costs the
   * indexing.
   *
   * @example
   * ```ts
   * import { createBuiltinSource, createCatalog, createResolver } from "@skillmux/core";
   * import { createFsStorage } from "@skillmux/core/fs";
   *
   * const catalog = await createCatalog({
   *   resolver: createResolver({ sources: [createBuiltinSource()] }),
   *   indexStorage: createFsStorage({ root: "./.skillmux-cache" }),
   * });
   * console.log(catalog.rank("sort a BAM file")[0].entry.id);
   * ```
   */
  indexStorage?: Storage;
  /**
   * Tools of registered servers that were never connected (no cached discovery), listed as
   * unconnected entries instead of connecting to discover them: `preview: true`, held until
   * approved. A server with no preview is discovered as before.
   */
  previews?: ToolPreviews;
  /**
   * Your own labelled requests (the lines of a `skillmux eval` file, as
   * {@linkcode parseLabelledRequests} reads them), used to rank the entries they name: each
   * request becomes one more example task of each entry it is labelled with, so requests worded
   * like yours find them (requests labelled `"none"` are not used). Explicit and reversible: a
   * catalog built without it ranks as before, and the index parts saved in `indexStorage` are
   * keyed by it. A label naming no usable entry is reported as a `feedback` diagnostic.
   *
   * @example
   * ```ts
   * import { createBuiltinSource, createCatalog, createResolver } from "@skillmux/core";
   * import { parseLabelledRequests } from "@skillmux/core/catalog";
   *
   * const feedback = parseLabelledRequests(
   *   '{"request": "how deep is the coverage over my exome targets", "expected": ["mosdepth"]}',
   * );
   * const catalog = await createCatalog({
   *   resolver: createResolver({ sources: [createBuiltinSource()] }),
   *   feedback,
   * });
   * console.log(catalog.rank("how deep is the coverage of these targets?")[0].entry.id); // "mosdepth"
   * ```
   */
  feedback?: readonly FeedbackRequest[];
  /** A cached discovery older than this is refreshed by connecting, in ms (default 1 hour). */
  discoveryMaxAgeMs?: number;
  /**
   * Treat community skills (installed from a registry) like your own: unfenced in prompts and not
   * checked for text that addresses the model (default `false`: fenced like remote skills).
   */
  trustCommunity?: boolean;
  /** Per-server timeout when discovering or listing tools, in ms (default 10000). */
  timeoutMs?: number;
  /** Rebuild after the registry changes (default `true`). */
  follow?: boolean;
  /** Cancels the first build. */
  signal?: AbortSignal;
}

/** A document to rank. */
export interface KeywordDocument {
  /** Unique id, returned by searches. */
  id: string;
  /** The name (boosted most). */
  name: string;
  /** A display title. */
  title?: string;
  /** What it does. */
  description: string;
  /** Tags (weighed more than the description). */
  tags?: readonly string[];
  /** Further words: concepts, example tasks, parameter names (weighed least). */
  keywords?: readonly string[];
  /** Example tasks, one per line (also in `keywords`): a word here weighs like a tag. */
  tasks?: readonly string[];
}

/** One hit of {@linkcode KeywordIndex.search}. */
export interface KeywordHit {
  /** The document id. */
  id: string;
  /** BM25F score; higher is better. Only comparable within one query. */
  score: number;
  /**
   * Absolute relevance, comparable across queries and catalogs: for each
   * distinct word of the query, the weight of the best field it appears in
   * exactly (after stemming) — name 3, title or tags 2, an example task or the
   * description 1.5 (2 for an entry with neither tags nor tasks), other
   * keywords 0.5 — times how specific the word is in this catalog, summed.
   * Everyday words that mean different things in different fields (`call`,
   * `map`, `sort`, `index`, `tool`…) count a third, and a word that is another
   * entry's whole name a third. Words found only in tasks and keywords count
   * half, unless a specific query word is in the name, tags or description, or
   * one example task holds two of the query's words. A lone match (one specific
   * word, and that word the entry's own name or one many entries hold) of a
   * request whose other words pull away (words no entry holds, product names
   * the catalog lacks) is cut below 2; product names the catalog lacks
   * count against any entry. The first hit, at 2.5 times the second's score and
   * with evidence of its own, is kept at 2 or more.
   * Selection keeps entries with at least 2.
   */
  evidence: number;
}

/** A built index. */
export interface KeywordIndex {
  /** How many documents it holds. */
  readonly size: number;
  /** Documents matching `query`, best first (at most `limit`, default 10). */
  search(query: string, options?: { limit?: number }): KeywordHit[];
}

/**
 * When entries are approved without asking:
 * - `auto`: on first sight and after every change (the change is still reported);
 * - `first-sight`: on first sight; a change holds the entry until approved again;
 * - `require`: never; every new or changed entry waits for an approval.
 */
export type ApprovalPolicy = "auto" | "first-sight" | "require";

/** One recorded approval. */
export interface ApprovalRecord {
  /** The digest approved. */
  digest: string;
  /** The definition approved (for diffs), cut at 64 KiB. */
  definition: string;
  /**
   * Where the entry ran when approved, for entries of a registered server: `url <url>` or
   * `stdio ["program","arg",…]`. When the server's URL or command changes, its entries are held
   * until approved again, like a changed definition.
   */
  endpoint?: string;
  /** ISO time of the approval. */
  approvedAt: string;
}

/**
 * Approvals, the rug-pull guard, as `createCatalog` keeps them. Defaults: local
 * skills (user, community) are approved automatically (`auto`), because the
 * user put them there; MCP tools and `mcp:*` skills wait for an approval
 * (`require`), because a server can change them at any time; built-in skills
 * and host functions are part of the application and always approved. Use
 * `remote: "first-sight"` to trust new remote entries and still hold changed ones.
 */
export interface ApprovalOptions {
  /** Where approvals are kept (one JSON document). */
  storage: Storage;
  /** Its key (default `approvals.json`). */
  key?: string;
  /** Policy for local sources: user and community skills (default `auto`). */
  local?: ApprovalPolicy;
  /** Policy for remote sources: MCP tools and `mcp:*` skills (default `require`). */
  remote?: ApprovalPolicy;
}
