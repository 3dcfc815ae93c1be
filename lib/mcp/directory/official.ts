/**
 * The official MCP Registry's read API, `/v0.1/` (registry.modelcontextprotocol.io, and every
 * sub-registry that serves the same API): search with cursors, one server at a version, all
 * its versions. Every answer is size-capped and checked against the `server.json` schema.
 *
 * @module
 */

import * as v from "valibot";
import { DirectoryError } from "./errors.ts";
import { checkName, entryOf, matches, words } from "./_entry.ts";
import { getJson, showUrl } from "./_http.ts";
import { SERVER_NAME_PATTERN } from "./server_json.ts";
import type {
  DirectoryEntry,
  DirectoryHttpOptions,
  DirectoryPage,
  DirectorySearchOptions,
  ServerDirectory,
} from "./types.ts";

/**
 * The official MCP Registry.
 *
 * @example
 * ```ts
 * import { OFFICIAL_REGISTRY_URL } from "@skillmux/core/directory";
 * console.log(OFFICIAL_REGISTRY_URL); // "https://registry.modelcontextprotocol.io"
 * ```
 */
export const OFFICIAL_REGISTRY_URL = "https://registry.modelcontextprotocol.io";

/** Options of {@linkcode createOfficialDirectory}. */
export interface OfficialDirectoryOptions extends DirectoryHttpOptions {
  /** The registry's base URL (default {@linkcode OFFICIAL_REGISTRY_URL}); a trailing `/v0.1` is fine. */
  url?: string;
}

const List = v.object({
  servers: v.pipe(v.array(v.unknown()), v.maxLength(500, "at most 500 servers a page")),
  metadata: v.optional(v.object({
    nextCursor: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2_000)))),
    count: v.optional(v.number()),
  })),
});

/** The base URL without a trailing slash or `/v0.1`. */
function baseOf(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new DirectoryError("config", `"${url}" is not a registry URL (expected https://…)`, {
      field: "url",
    });
  }
  base.pathname = base.pathname.replace(/\/+$/, "").replace(/\/v0(\.1)?$/, "");
  base.search = "";
  base.hash = "";
  return base;
}

/**
 * A reader of a registry that serves the `/v0.1/` API. `search` sends the longest word as the
 * API's `search` (a substring of the name on the official registry) and keeps the entries that
 * hold every word in their name, title or description; deleted entries are left out (and said
 * in `skipped`), as are entries that are not valid `server.json`.
 *
 * @param options The base URL, fetch, timeout, size cap and URL policy.
 * @returns The directory.
 *
 * @example Search the official registry
 * ```ts ignore
 * import { createOfficialDirectory } from "@skillmux/core/directory";
 * const registry = createOfficialDirectory();
 * const page = await registry.search("filesystem");
 * for (const e of page.entries) console.log(e.server.name, e.server.version, e.status);
 * ```
 */
export function createOfficialDirectory(options: OfficialDirectoryOptions = {}): ServerDirectory {
  const base = baseOf(options.url ?? OFFICIAL_REGISTRY_URL);
  const id = base.href.replace(/\/$/, "");
  const at = (path: string) => new URL(`${base.pathname.replace(/\/$/, "")}/v0.1/${path}`, base);

  async function list(url: URL, what: string, signal?: AbortSignal) {
    const doc = v.safeParse(List, await getJson(url, { ...options, signal }, what));
    if (!doc.success) {
      throw new DirectoryError(
        "invalid",
        `Cannot read ${what}: ${showUrl(url)} did not answer { "servers": [...] }`,
        { url: showUrl(url) },
      );
    }
    const entries: DirectoryEntry[] = [];
    const skipped: string[] = [];
    doc.output.servers.forEach((item, i) => {
      try {
        entries.push(entryOf(item, id, `${what}, servers[${i}]`));
      } catch (error) {
        skipped.push((error as Error).message);
      }
    });
    return { entries, skipped, next: doc.output.metadata?.nextCursor ?? undefined };
  }

  return {
    id,
    kind: "official",
    async search(query: string, opts: DirectorySearchOptions = {}): Promise<DirectoryPage> {
      const terms = words(query);
      const url = at("servers");
      const longest = [...terms].sort((a, b) => b.length - a.length)[0];
      if (longest) url.searchParams.set("search", longest);
      url.searchParams.set("version", "latest");
      url.searchParams.set("limit", String(Math.min(Math.max(opts.limit ?? 20, 1), 100)));
      if (opts.cursor) url.searchParams.set("cursor", opts.cursor);
      const { entries, skipped, next } = await list(url, `the servers of ${id}`, opts.signal);
      const kept = entries.filter((e) => {
        if (e.status !== "deleted") return true;
        skipped.push(`${e.server.name} ${e.server.version} is deleted by the registry`);
        return false;
      }).filter((e) => matches(e, terms));
      return {
        entries: kept,
        ...(next ? { nextCursor: next } : {}),
        ...(skipped.length ? { skipped } : {}),
      };
    },
    async get(name, version, opts = {}) {
      checkName(name, SERVER_NAME_PATTERN);
      const path = `servers/${encodeURIComponent(name)}/versions/${
        encodeURIComponent(version ?? "latest")
      }`;
      const what = `server ${name}${version ? `@${version}` : ""} from ${id}`;
      const entry = entryOf(await getJson(at(path), { ...options, ...opts }, what), id, what);
      if (entry.server.name !== name) {
        throw new DirectoryError(
          "invalid",
          `${what}: the registry answered with another server ("${entry.server.name}")`,
          { server: name, field: "server.name" },
        );
      }
      if (version !== undefined && entry.server.version !== version) {
        throw new DirectoryError(
          "invalid",
          `${what}: the registry answered with version ${entry.server.version}`,
          { server: name, field: "server.version" },
        );
      }
      return entry;
    },
    async versions(name, opts = {}) {
      checkName(name, SERVER_NAME_PATTERN);
      const url = at(`servers/${encodeURIComponent(name)}/versions`);
      const { entries } = await list(url, `the versions of ${name} from ${id}`, opts.signal);
      return entries.filter((e) => e.server.name === name);
    },
  };
}
