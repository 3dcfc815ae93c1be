/**
 * The BioContext registry of bioinformatics MCP servers (biocontext.ai): read from its published
 * JSON (`registry.json`, `mcp.json`, `mcp_tools.json` at a base URL) or from a copy of its
 * repository's `servers/` folder (`servers/<dir>/meta.yaml` and `mcp.json`) in any `Storage`.
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import { DirectoryError } from "./errors.ts";
import { BIOCONTEXT_NAME, bioContextEntry, toolsOf } from "./_biocontext_entry.ts";
import { checkName, matches, words } from "./_entry.ts";
import { getJson, showUrl } from "./_http.ts";
import type {
  DirectoryEntry,
  DirectoryHttpOptions,
  ServerDirectory,
  ToolPreview,
} from "./types.ts";

/**
 * The published BioContext registry.
 *
 * @example
 * ```ts
 * import { BIOCONTEXT_REGISTRY_URL, createBioContextDirectory } from "@skillmux/core/directory";
 * const directory = createBioContextDirectory({ url: BIOCONTEXT_REGISTRY_URL });
 * console.log(directory.kind, directory.id); // "biocontext" and its URL
 * ```
 */
export const BIOCONTEXT_REGISTRY_URL = "https://biocontext.ai";

/** Options of {@linkcode createBioContextDirectory}: a base URL, or a storage holding `servers/`. */
export type BioContextDirectoryOptions =
  & DirectoryHttpOptions
  & (
    | {
      /** Base URL of `registry.json`, `mcp.json` and `mcp_tools.json` (default biocontext.ai). */
      url?: string;
      storage?: undefined;
      id?: undefined;
    }
    | {
      /** A storage with `servers/<dir>/meta.yaml` (and `mcp.json`), e.g. `createFsStorage({ root })`. */
      storage: Storage;
      /** Names the registry in messages and origins (default `biocontext:local`). */
      id?: string;
      url?: undefined;
    }
  );

const YAML_OPTIONS = { schema: "core", version: "1.2", merge: false, maxAliasCount: 50 } as const;

async function parseYaml(text: string, where: string): Promise<unknown> {
  const { parse } = await import("yaml");
  try {
    return parse(text, YAML_OPTIONS);
  } catch (error) {
    throw new DirectoryError("invalid", `${where} is not valid YAML: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function fromStorage(
  storage: Storage,
  id: string,
  skipped: string[],
): Promise<DirectoryEntry[]> {
  const keys = await storage.keys();
  const tools = keys.includes("mcp_tools.json")
    ? toolsOf(JSON.parse((await storage.get("mcp_tools.json")) ?? "{}"))
    : new Map<string, ToolPreview[]>();
  const folders = keys.map((k) => /^(.*?servers\/[^/]+)\/meta\.yaml$/.exec(k)?.[1]).filter(
    (f): f is string => f !== undefined,
  );
  const entries: DirectoryEntry[] = [];
  for (const folder of folders) {
    try {
      const meta = await parseYaml(
        (await storage.get(`${folder}/meta.yaml`))!,
        `${folder}/meta.yaml`,
      );
      const mcpText = await storage.get(`${folder}/mcp.json`);
      let mcp: unknown;
      if (mcpText !== undefined) {
        try {
          mcp = JSON.parse(mcpText);
        } catch (error) {
          throw new DirectoryError(
            "invalid",
            `${folder}/mcp.json is not JSON: ${(error as Error).message}`,
          );
        }
      }
      const identifier = (meta as { identifier?: unknown })?.identifier;
      const listed = typeof identifier === "string" ? tools.get(identifier) : undefined;
      entries.push(bioContextEntry(meta, mcp, listed, id, folder));
    } catch (error) {
      skipped.push((error as Error).message);
    }
  }
  return entries;
}

async function fromUrl(
  base: URL,
  id: string,
  options: DirectoryHttpOptions,
  skipped: string[],
  signal?: AbortSignal,
): Promise<DirectoryEntry[]> {
  const at = (file: string) => new URL(file, base.href.endsWith("/") ? base : `${base.href}/`);
  const [metas, mcp, tools] = await Promise.all([
    getJson(at("registry.json"), { ...options, signal }, `the BioContext registry ${id}`),
    getJson(at("mcp.json"), { ...options, signal }, `the BioContext launch table of ${id}`),
    getJson(at("mcp_tools.json"), { ...options, signal }, `the BioContext tools of ${id}`).catch(
      () => ({}), // optional: entries simply have no tool previews
    ),
  ]);
  if (!Array.isArray(metas)) {
    throw new DirectoryError("invalid", `${showUrl(at("registry.json"))}: expected a JSON array`, {
      url: showUrl(at("registry.json")),
    });
  }
  const table = (mcp as { mcpServers?: Record<string, unknown> })?.mcpServers ?? {};
  const byName = toolsOf(tools);
  const entries: DirectoryEntry[] = [];
  metas.slice(0, 10_000).forEach((meta, i) => {
    const name = (meta as { identifier?: unknown })?.identifier;
    const key = typeof name === "string" ? name : "";
    try {
      const launch = Object.hasOwn(table, key) ? { mcpServers: { [key]: table[key] } } : undefined;
      entries.push(bioContextEntry(meta, launch, byName.get(key), id, `registry.json[${i}]`));
    } catch (error) {
      skipped.push((error as Error).message);
    }
  });
  return entries;
}

/**
 * A reader of the BioContext registry. Everything is read on the first call and kept; `search`
 * matches every word against names, titles, descriptions and keywords, with numeric cursors.
 * Entries that are not valid are left out and said in the first page's `skipped`.
 *
 * @param options A base URL (default biocontext.ai) or a storage holding `servers/`.
 * @returns The directory.
 *
 * @example From a folder holding a copy of the registry's `servers/`
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { createBioContextDirectory } from "@skillmux/core/directory";
 * const storage = createMemoryStorage({
 *   initial: {
 *     "servers/demo/meta.yaml": "identifier: example/demo\nname: Demo\ndescription: Gene lookups for demos\n",
 *     "servers/demo/mcp.json": '{"mcpServers":{"example/demo":{"url":"https://demo.example.org/mcp"}}}',
 *   },
 * });
 * const page = await createBioContextDirectory({ storage }).search("gene");
 * console.log(page.entries[0].server.remotes?.[0].url); // "https://demo.example.org/mcp"
 * ```
 */
export function createBioContextDirectory(
  options: BioContextDirectoryOptions = {},
): ServerDirectory {
  let base: URL | undefined;
  if (options.storage === undefined) {
    try {
      base = new URL(options.url ?? BIOCONTEXT_REGISTRY_URL);
    } catch {
      throw new DirectoryError("config", `"${options.url}" is not a registry URL`, {
        field: "url",
      });
    }
  }
  const id = base ? base.href.replace(/\/$/, "") : (options.id ?? "biocontext:local");
  const skipped: string[] = [];
  let loading: Promise<DirectoryEntry[]> | undefined;
  const load = (signal?: AbortSignal) => {
    loading ??=
      (base
        ? fromUrl(base, id, options, skipped, signal)
        : fromStorage(options.storage!, id, skipped)).then(
          (all) => all.sort((a, b) => a.server.name.localeCompare(b.server.name)),
        );
    loading.catch(() => (loading = undefined));
    return loading;
  };
  const find = async (name: string, signal?: AbortSignal) => {
    checkName(name, BIOCONTEXT_NAME);
    const found = (await load(signal)).find((e) => e.server.name === name);
    if (!found) {
      throw new DirectoryError("not-found", `${id} has no server named "${name}"`, {
        server: name,
      });
    }
    return found;
  };
  return {
    id,
    kind: "biocontext",
    async search(query, opts = {}) {
      const all = (await load(opts.signal)).filter((e) => matches(e, words(query)));
      const start = Math.max(0, Number.parseInt(opts.cursor ?? "0", 10) || 0);
      const limit = Math.min(Math.max(opts.limit ?? 20, 1), 100);
      const end = start + limit;
      return {
        entries: all.slice(start, end),
        ...(end < all.length ? { nextCursor: String(end) } : {}),
        ...(start === 0 && skipped.length ? { skipped: [...skipped] } : {}),
      };
    },
    async get(name, version, opts = {}) {
      const found = await find(name, opts.signal);
      if (version !== undefined && version !== found.server.version) {
        throw new DirectoryError(
          "not-found",
          `${id} has ${name} only at ${found.server.version}, not ${version}`,
          { server: name },
        );
      }
      return found;
    },
    async versions(name, opts = {}) {
      return [await find(name, opts.signal)];
    },
  };
}
