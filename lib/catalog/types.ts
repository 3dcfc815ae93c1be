/**
 * The data model of the catalog: entries (skills, MCP tools, host functions),
 * host functions as an application registers them, and the catalog itself.
 *
 * @module
 */

import type { Resolution } from "../resolve/types.ts";
import type { McpClient } from "../mcp/client_types.ts";
import type { McpServerConfig, Tool } from "../mcp/types.ts";

/** The three kinds of entry. */
export type EntryKind = "skill" | "tool" | "function";

/** A JSON Schema object (tool input schemas). */
export type JsonSchema = Record<string, unknown>;

/** Where an entry stands with the approvals (see `createApprovalStore`). */
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
  /** Remote skills: the `allowed-tools` they ask for (never granted by the catalog). */
  requestedTools?: string[];
  /** Approved, or held out of prompts until approved (`pending` first sight, `changed` since approval). */
  approval: ApprovalState;
}

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
  /** The source concerned: `resolver`, `mcp:<server>`, `host` or `approvals`. */
  source: string;
  /** The kind of problem. */
  problem: "unreachable" | "stale" | "invalid" | "collision" | "pending" | "changed";
  /** A sentence saying what happened. */
  message: string;
  /** The entry concerned, when there is one. */
  id?: string;
}

/** An entry kept out of rendering, ranking and prompts until approved. */
export interface HeldEntry {
  /** The entry (its `approval` says why). */
  entry: CatalogEntry;
  /** For `changed` entries: a line diff of the definition since it was approved. */
  diff?: string;
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
