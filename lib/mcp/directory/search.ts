/**
 * Search MCP registries and read one server from them: {@linkcode searchServers} over one or
 * several registries (default the official one), with one cursor for all; {@linkcode getServer}
 * by name and version.
 *
 * @module
 */

import { createOfficialDirectory } from "./official.ts";
import { DirectoryError } from "./errors.ts";
import type { DirectoryEntry, DirectoryPage, ServerDirectory } from "./types.ts";

/** Options of {@linkcode searchServers}. */
export interface SearchServersOptions {
  /** The registries to search, in order (default: the official MCP Registry). */
  directories?: readonly ServerDirectory[];
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Most entries per registry and page (default 20). */
  limit?: number;
  /** Cancels the requests. */
  signal?: AbortSignal;
}

/** A page of {@linkcode searchServers}: the entries, and what each registry said. */
export interface SearchServersPage extends DirectoryPage {
  /** Registries that could not be read, one sentence each (the others' entries are kept). */
  failures: string[];
}

type Cursors = Record<string, string | null>;

function decode(cursor: string | undefined, count: number): Cursors | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(atob(cursor)) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Cursors;
    }
  } catch { /* below */ }
  if (count === 1) return undefined;
  throw new DirectoryError("invalid", "the cursor is not one that searchServers returned", {
    field: "cursor",
  });
}

/**
 * Search every registry for servers matching all words of `query`; one that fails is reported
 * in `failures` and the others still answer. Pass `nextCursor` back as `cursor` for the next
 * page (a registry that has no more pages is not asked again).
 *
 * @param query Words to find (empty: everything, page by page).
 * @param options The registries, cursor, page size and signal.
 * @returns The entries of this page, the next cursor, and what was left out.
 *
 * @example
 * ```ts ignore
 * import { searchServers } from "@skillmux/core/directory";
 * const page = await searchServers("weather");
 * for (const e of page.entries) console.log(e.server.name, e.server.version);
 * ```
 */
export async function searchServers(
  query: string,
  options: SearchServersOptions = {},
): Promise<SearchServersPage> {
  const directories = options.directories ?? [createOfficialDirectory()];
  const single = directories.length === 1;
  const cursors = single
    ? { [directories[0].id]: options.cursor ?? "" }
    : decode(options.cursor, directories.length);
  const pages = await Promise.all(directories.map(async (d) => {
    const at = cursors?.[d.id];
    if (cursors && (at === null || at === undefined)) return { d, page: undefined };
    try {
      const page = await d.search(query, {
        ...(at ? { cursor: at } : {}),
        limit: options.limit,
        signal: options.signal,
      });
      return { d, page };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { d, error: `${d.id}: ${(error as Error).message}` };
    }
  }));
  const entries: DirectoryEntry[] = [];
  const skipped: string[] = [];
  const failures: string[] = [];
  const next: Cursors = {};
  for (const row of pages) {
    if ("error" in row) failures.push(row.error!);
    if (row.page) {
      entries.push(...row.page.entries);
      skipped.push(...(row.page.skipped ?? []));
    }
    next[row.d.id] = row.page?.nextCursor ?? null;
  }
  const more = Object.values(next).some((c) => c !== null);
  const nextCursor = !more
    ? undefined
    : single
    ? next[directories[0].id]!
    : btoa(JSON.stringify(next));
  if (failures.length === directories.length && failures.length > 0) {
    throw new DirectoryError("network", failures.join("; "));
  }
  return {
    entries,
    ...(nextCursor ? { nextCursor } : {}),
    ...(skipped.length ? { skipped } : {}),
    failures,
  };
}

/** Options of {@linkcode getServer}. */
export interface GetServerOptions {
  /** The registry to read (default: the official MCP Registry). */
  directory?: ServerDirectory;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/**
 * One server of a registry, at `version` (default: its latest), checked.
 *
 * @param name The server name, e.g. `io.github.owner/weather`.
 * @param version An exact version, or none for the latest.
 * @param options The registry and signal.
 * @returns The entry.
 * @throws {DirectoryError} `not-found`, `invalid` and the rest.
 *
 * @example
 * ```ts ignore
 * import { getServer, launchOptions } from "@skillmux/core/directory";
 * const entry = await getServer("io.github.example/weather");
 * console.log(launchOptions(entry).map((o) => o.label));
 * ```
 */
export function getServer(
  name: string,
  version?: string,
  options: GetServerOptions = {},
): Promise<DirectoryEntry> {
  const directory = options.directory ?? createOfficialDirectory();
  return directory.get(name, version, { signal: options.signal });
}
