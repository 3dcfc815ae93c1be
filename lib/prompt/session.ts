/**
 * Tool sessions: the MCP connections prompt assembly and tool calls use,
 * opened only for the servers of selected tools and shared until closed.
 *
 * @module
 */

import { connect, type ConnectOptions } from "../mcp/client.ts";
import type { McpClient } from "../mcp/client_types.ts";
import type { Catalog } from "../catalog/types.ts";

/** Open connections to the servers of a catalog's tools. */
export interface ToolSession {
  /** The connected client for a `tool` entry (connecting on first use). */
  client(id: string, options?: { signal?: AbortSignal }): Promise<McpClient>;
  /** Names of the servers this session has connected. */
  connected(): string[];
  /** Close every connection this session opened (not clients the catalog was given). */
  close(): Promise<void>;
}

/** Options of {@linkcode createToolSession}. */
export interface ToolSessionOptions {
  /** The catalog whose tools are called. */
  catalog: Catalog;
  /** Options of every connection (URL policy, timeouts, fetch, …). */
  connect?: ConnectOptions;
}

/**
 * A session connecting lazily to the servers of `catalog`'s tools: one
 * connection per server, reused by every call, closed by `close()`.
 *
 * @example
 * ```ts
 * import { createCatalog, createToolSession } from "@skillmux/core";
 * const catalog = await createCatalog();
 * const session = createToolSession({ catalog });
 * console.log(session.connected()); // []
 * await session.close();
 * ```
 */
export function createToolSession(options: ToolSessionOptions): ToolSession {
  const open = new Map<string, Promise<McpClient>>();
  return {
    async client(id, call = {}) {
      const target = options.catalog.toolTarget(id);
      if (!target) throw new RangeError(`"${id}" is not a usable MCP tool of the catalog`);
      if (target.client) return target.client;
      const server = target.server!;
      let pending = open.get(server.name);
      if (!pending) {
        pending = connect(server, { ...options.connect, signal: call.signal });
        open.set(server.name, pending);
        pending.catch(() => open.delete(server.name));
      }
      return await pending;
    },
    connected: () => [...open.keys()],
    async close() {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
    },
  };
}
