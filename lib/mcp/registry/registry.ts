/**
 * The server registry: MCP servers stored through any storage adapter as
 * `[[mcp.servers]]` in `config.toml`, with add, list, remove, ping and refresh.
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import { connect, type ConnectOptions } from "../client.ts";
import type { CallOptions } from "../client_types.ts";
import { parseServersToml, toServersToml } from "./config_formats.ts";
import { discoverServer, type ServerDiscovery } from "./discover.ts";
import { PolicyError } from "../errors.ts";
import { prepareServer } from "../policy/prepare.ts";
import type { Implementation, McpServerConfig, TransportKind } from "../types.ts";

/** Options of {@linkcode createServerRegistry}. */
export interface ServerRegistryOptions {
  /** Where the configuration lives (use `createFsStorage({ root, private: true })` on Deno/Node: it holds API keys). */
  storage: Storage;
  /** The storage key of the configuration document (default `config.toml`). */
  key?: string;
  /** Options for every connection the registry opens. */
  connect?: ConnectOptions;
}

/** One row of {@linkcode ServerRegistry.ping}. */
export type PingResult =
  | {
    name: string;
    ok: true;
    serverInfo: Implementation;
    protocolVersion: string;
    transport: TransportKind;
    latencyMs: number;
    /** How many resources the server lists (the resolver tells which are skills). */
    resources: number;
    tools: number;
    /** What was discovered, for callers that want more than counts. */
    discovery: ServerDiscovery;
  }
  | { name: string; ok: false; error: string; kind: string };

/** One row of {@linkcode ServerRegistry.refresh}. */
export type RefreshResult =
  | { name: string; ok: true; discovery: ServerDiscovery }
  | { name: string; ok: false; error: string; kind: string };

/** Options of {@linkcode ServerRegistry.add}. */
export interface AddServerOptions extends CallOptions {
  /** Connect and discover before saving (default `true`); nothing is saved if that fails. */
  discover?: boolean;
  /** Replace a server of the same name instead of refusing. */
  replace?: boolean;
}

/** A stored list of MCP servers. */
export interface ServerRegistry {
  /** Every registered server, in registration order. */
  list(): Promise<McpServerConfig[]>;
  /** One server by name. */
  get(name: string): Promise<McpServerConfig | undefined>;
  /** Validate, connect, discover, then save. Throws `PolicyError` for bad input; saves nothing on failure. */
  add(
    server: McpServerConfig,
    options?: AddServerOptions,
  ): Promise<{ server: McpServerConfig; discovery?: ServerDiscovery }>;
  /** Remove by name or URL; throws `PolicyError` when nothing matches. */
  remove(nameOrUrl: string): Promise<McpServerConfig>;
  /** Add many at once (from `parseMcpServersJson` or `parseServersToml`), validated first, without connecting. */
  import(
    servers: readonly McpServerConfig[],
    options?: { replace?: boolean },
  ): Promise<McpServerConfig[]>;
  /** Ping every enabled server (or those named) in parallel; one failure never hides the others. */
  ping(names?: readonly string[], options?: CallOptions): Promise<PingResult[]>;
  /** Re-discover tools, resources and templates and cache them with the time of discovery. */
  refresh(names?: readonly string[], options?: CallOptions): Promise<RefreshResult[]>;
  /** The cached discovery of a server, if any. */
  discovery(name: string): Promise<ServerDiscovery | undefined>;
  /** Drop a server's cached discovery (its lists changed); the next `refresh` makes a new one. */
  invalidate(name: string): Promise<void>;
}

const describe = (error: unknown) => ({
  error: error instanceof Error ? error.message : String(error),
  kind: error instanceof Error ? error.name : "Error",
});

/**
 * A registry of MCP servers kept in `storage`.
 *
 * @example
 * ```ts
 * import { createServerRegistry } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const registry = createServerRegistry({ storage: createFsStorage({ root: "./.skillmux", private: true }) });
 * await registry.add({ name: "docs", url: "http://127.0.0.1:3001/mcp" });
 * for (const row of await registry.ping()) console.log(row.name, row.ok ? `${row.latencyMs} ms` : row.error);
 * ```
 */
export function createServerRegistry(options: ServerRegistryOptions): ServerRegistry {
  const { storage } = options;
  const key = options.key ?? "config.toml";
  const cacheKey = (name: string) => `cache/mcp/${name}.json`;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const read = async () => parseServersToml((await storage.get(key)) ?? "");
  const write = async (servers: McpServerConfig[]) =>
    await storage.set(key, toServersToml(servers, (await storage.get(key)) ?? ""));
  const check = (server: McpServerConfig) => prepareServer(server, options.connect);

  function merge(
    existing: McpServerConfig[],
    incoming: McpServerConfig,
    replace: boolean,
  ): McpServerConfig[] {
    const same = existing.findIndex((s) => s.name === incoming.name);
    if (same >= 0 && !replace) {
      throw new PolicyError(
        `Server "${incoming.name}" is already registered; remove it first or replace it`,
        {
          field: "name",
        },
      );
    }
    const clash = existing.find((s) =>
      s.name !== incoming.name && incoming.url && s.url === incoming.url
    );
    if (clash) {
      throw new PolicyError(`Server "${clash.name}" already has the URL ${incoming.url}`, {
        field: "url",
      });
    }
    return same >= 0
      ? existing.map((s, i) => (i === same ? incoming : s))
      : [...existing, incoming];
  }

  async function use<T>(
    server: McpServerConfig,
    call: CallOptions,
    fn: (client: Awaited<ReturnType<typeof connect>>) => Promise<T>,
  ): Promise<T> {
    const cached = await storage.get(cacheKey(server.name)).catch(() => undefined);
    let hint: ServerDiscovery["hint"];
    try {
      hint = cached === undefined ? undefined : (JSON.parse(cached) as ServerDiscovery).hint;
    } catch {
      hint = undefined; // a damaged cache only costs the era probe
    }
    const client = await connect(server, {
      ...options.connect,
      hint: options.connect?.hint ?? hint,
      signal: call.signal,
      timeoutMs: call.timeoutMs,
    });
    try {
      return await fn(client);
    } finally {
      await client.close().catch(() => {});
    }
  }

  async function select(names?: readonly string[]): Promise<McpServerConfig[]> {
    const all = await read();
    if (names === undefined) return all.filter((s) => s.enabled !== false);
    return names.map((name) => {
      const found = all.find((s) => s.name === name || s.url === name);
      if (!found) {
        throw new PolicyError(`No server named "${name}" is registered`, { field: "name" });
      }
      return found;
    });
  }

  return {
    list: read,
    async get(name) {
      return (await read()).find((s) => s.name === name);
    },
    async add(server, addOptions = {}) {
      check(server);
      return await serial(async () => {
        merge(await read(), server, addOptions.replace ?? false);
        let discovery: ServerDiscovery | undefined;
        if (addOptions.discover !== false) {
          discovery = await use(server, addOptions, (client) => discoverServer(client, addOptions));
        }
        await write(merge(await read(), server, addOptions.replace ?? false));
        if (discovery) await storage.set(cacheKey(server.name), JSON.stringify(discovery));
        return { server, discovery };
      });
    },
    remove(nameOrUrl) {
      return serial(async () => {
        const all = await read();
        const found = all.find((s) => s.name === nameOrUrl || s.url === nameOrUrl);
        if (!found) {
          throw new PolicyError(`No server matches "${nameOrUrl}" (by name or URL)`, {
            field: "name",
          });
        }
        await write(all.filter((s) => s !== found));
        await storage.delete(cacheKey(found.name));
        return found;
      });
    },
    async import(servers, importOptions = {}) {
      servers.forEach(check);
      return await serial(async () => {
        let all = await read();
        for (const server of servers) all = merge(all, server, importOptions.replace ?? false);
        await write(all);
        return [...servers];
      });
    },
    async ping(names, call = {}) {
      const servers = await select(names);
      return await Promise.all(servers.map(async (server): Promise<PingResult> => {
        try {
          return await use(server, call, async (client) => {
            const latencyMs = await client.ping(call);
            const found = await discoverServer(client, call);
            return {
              name: server.name,
              ok: true,
              serverInfo: client.serverInfo,
              protocolVersion: client.protocolVersion,
              transport: client.transport,
              latencyMs,
              resources: found.resources.length,
              tools: found.tools.length,
              discovery: found,
            };
          });
        } catch (error) {
          return { name: server.name, ok: false, ...describe(error) };
        }
      }));
    },
    async refresh(names, call = {}) {
      const servers = await select(names);
      return await Promise.all(servers.map(async (server): Promise<RefreshResult> => {
        try {
          const discovery = await use(server, call, (client) => discoverServer(client, call));
          await storage.set(cacheKey(server.name), JSON.stringify(discovery));
          return { name: server.name, ok: true, discovery };
        } catch (error) {
          return { name: server.name, ok: false, ...describe(error) };
        }
      }));
    },
    async invalidate(name) {
      await storage.delete(cacheKey(name));
    },
    async discovery(name) {
      const text = await storage.get(cacheKey(name));
      return text === undefined ? undefined : JSON.parse(text) as ServerDiscovery;
    },
  };
}
