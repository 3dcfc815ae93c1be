/**
 * The interface every MCP registry reader implements. In skillmux's code an MCP registry (a
 * list of servers one can install, such as registry.modelcontextprotocol.io or the BioContext
 * registry) is a *server directory*, so that it is never confused with the *server registry*,
 * the user's own list of configured servers (`createServerRegistry`).
 *
 * @module
 */

import type { UrlPolicyOptions } from "../policy/url.ts";
import type { ServerJson } from "./server_json.ts";

/** A registry's word on an entry: in use, kept but discouraged, or withdrawn. */
export type EntryStatus = "active" | "deprecated" | "deleted";

/** A tool an entry says its server has, listed before anything connects. */
export interface ToolPreview {
  /** The tool name. */
  name: string;
  /** What it does. */
  description?: string;
  /** Its input schema, when the registry gives one. */
  inputSchema?: Record<string, unknown>;
}

/**
 * A command line that a registry gives as is (BioContext's `mcp.json`) rather than as a package:
 * it is checked before it may run (see `planServer`).
 */
export interface DirectoryCommand {
  /** The program. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Environment variables the entry names, with the values or placeholders it gives. */
  env: Array<{ name: string; value?: string; placeholder?: string; isSecret: boolean }>;
}

/** One server of a registry, one version. */
export interface DirectoryEntry {
  /** The `server.json` (checked; from BioContext: built from `meta.yaml` and `mcp.json`). */
  server: ServerJson;
  /** The registry's status of this version (default `active`). */
  status: EntryStatus;
  /** Why it is deprecated or deleted, when the registry says. */
  statusMessage?: string;
  /** When it was published (ISO), when known. */
  publishedAt?: string;
  /** When it last changed (ISO), when known. */
  updatedAt?: string;
  /** Whether this is the newest version, when known. */
  isLatest?: boolean;
  /** Which registry it came from (its {@linkcode ServerDirectory.id}). */
  directory: string;
  /** Tools the registry lists for it, when it does. */
  tools?: ToolPreview[];
  /** A command line as the registry gives it (BioContext), when there is no package. */
  command?: DirectoryCommand;
  /** Extra words for search (BioContext keywords). */
  keywords?: string[];
}

/** Options of {@linkcode ServerDirectory.search}. */
export interface DirectorySearchOptions {
  /** Continue after the page that returned this cursor. */
  cursor?: string;
  /** Most entries on a page (default 20, at most 100). */
  limit?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** One page of search results. */
export interface DirectoryPage {
  /** The entries, latest version of each, best matches first where the registry ranks. */
  entries: DirectoryEntry[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  /** Entries of the answer left out (invalid, or deleted by the registry), one sentence each. */
  skipped?: string[];
}

/** Options of {@linkcode ServerDirectory.get} and {@linkcode ServerDirectory.versions}. */
export interface DirectoryGetOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** An MCP registry, read through one provider (the official `/v0.1/` API, BioContext…). */
export interface ServerDirectory {
  /** What names this registry in messages and in an added server's origin (usually its URL). */
  readonly id: string;
  /** The provider: `official` (the `/v0.1/` API) or `biocontext`. */
  readonly kind: string;
  /** Entries matching every word of `query` (all entries for an empty query). */
  search(query: string, options?: DirectorySearchOptions): Promise<DirectoryPage>;
  /** One server at `version` (default: its latest); throws `DirectoryError` `not-found`. */
  get(name: string, version?: string, options?: DirectoryGetOptions): Promise<DirectoryEntry>;
  /** Every version of a server, newest first. */
  versions(name: string, options?: DirectoryGetOptions): Promise<DirectoryEntry[]>;
}

/** How a directory reaches the network. */
export interface DirectoryHttpOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request timeout in ms (default 15 000). */
  timeoutMs?: number;
  /** Largest answer read, in bytes (default 8 MiB): reading stops there. */
  maxBytes?: number;
  /** Which URLs may be contacted, redirects included (default: https, http only to loopback). */
  urlPolicy?: UrlPolicyOptions;
}
