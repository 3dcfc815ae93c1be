/**
 * The data model of the catalog: the catalog itself, its options, rendering and diagnostics.
 * The types of its entries (`entry_types.ts`), approvals (`approval_types.ts`) and keyword
 * search (`search_types.ts`) live apart, one concept each, and are re-exported here so that
 * `model/types.ts` stays the one import of the data model.
 *
 * @module
 */

import type { Resolution } from "../../resolve/types.ts";
import type { McpClient } from "../../mcp/client/client_types.ts";
import type { ServerRegistry } from "../../mcp/registry/registry.ts";
import type { Resolver } from "../../resolve/types.ts";
import type { Storage } from "../../storage/types.ts";
import type { ApprovalOptions, HeldEntry } from "./approval_types.ts";
import type { CatalogEntry, HostFunction, ToolPreviews, ToolTarget } from "./entry_types.ts";
import type { RankedEntry, RankOptions } from "./search_types.ts";

export type {
  ApprovalState,
  CatalogEntry,
  EntryKind,
  HostFunction,
  HostFunctionContext,
  JsonSchema,
  ToolPreviews,
  ToolTarget,
} from "./entry_types.ts";
export type {
  ApprovalOptions,
  ApprovalPolicy,
  ApprovalRecord,
  HeldEntry,
} from "./approval_types.ts";
export type {
  KeywordDocument,
  KeywordHit,
  KeywordIndex,
  RankedEntry,
  RankOptions,
} from "./search_types.ts";

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
