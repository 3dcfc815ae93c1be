// Private: tool sessions, the MCP connections prompt assembly and tool calls use, opened only
// for the servers of selected tools and shared until closed.

import { connect, type ConnectOptions } from "../mcp/client/client.ts";
import type { McpClient } from "../mcp/client/client_types.ts";
import type { Catalog } from "../catalog/model/types.ts";
import type { ToolSession } from "./types.ts";

/** Options of `createToolSession`. */
export interface ToolSessionOptions {
  /** The catalog whose tools are called. */
  catalog: Catalog;
  /** Options of every connection (URL policy, timeouts, fetch, …). */
  connect?: ConnectOptions;
}

/** A session connecting lazily to the servers of `catalog`'s tools, one connection per server. */
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
