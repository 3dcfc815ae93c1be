// Private: the gateway's upstream connections, one per registered server, opened on the first
// call and shared by every later call. A connection found broken (the server died, answered
// garbage, lost its session) is dropped so that the next call opens a new one; a slow call only
// times out itself. Each caller waits for a connection under its own signal, so one caller
// giving up never fails the others waiting for the same server.

import { raceSignal } from "../_abort.ts";
import type { Catalog, CatalogEntry } from "../catalog/model/types.ts";
import { connect } from "../mcp/client/client.ts";
import type { McpClient } from "../mcp/client/client_types.ts";
import type { ConnectOptions } from "../mcp/client/connect_options.ts";

/** Errors after which a connection is not used again. */
const BROKEN = new Set([
  "NetworkError",
  "ProtocolError",
  "StreamEndedError",
  "SessionExpiredError",
  "ResponseTooLargeError",
]);

/** Whether `error` means the connection itself is unusable (not just this call failed). */
export function isBroken(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return BROKEN.has(error.name) || /\bclosed\b/i.test(error.message);
}

/** Open upstream connections, by server name. */
export class UpstreamPool {
  readonly #catalog: Catalog;
  readonly #connect: ConnectOptions | undefined;
  readonly #open = new Map<string, Promise<McpClient>>();

  constructor(catalog: Catalog, options?: ConnectOptions) {
    this.#catalog = catalog;
    this.#connect = options;
  }

  /** The connection to the server of `entry` (opened when there is none). */
  client(entry: CatalogEntry, signal: AbortSignal): Promise<McpClient> {
    const target = this.#catalog.toolTarget(entry.id);
    if (target === undefined) throw new RangeError(`"${entry.id}" is not a usable MCP tool`);
    if (target.client !== undefined) return Promise.resolve(target.client);
    const server = target.server!;
    let pending = this.#open.get(server.name);
    if (pending === undefined) {
      pending = connect(server, this.#connect);
      this.#open.set(server.name, pending);
      const opened = pending;
      opened.catch(() => {
        if (this.#open.get(server.name) === opened) this.#open.delete(server.name);
      });
    }
    return raceSignal(pending, signal);
  }

  /** Drop (and close) the connection to `server`; the next call opens a new one. */
  evict(server: string, client?: McpClient): void {
    const pending = this.#open.get(server);
    if (pending === undefined) return;
    pending.then((open) => {
      if (client !== undefined && open !== client) return;
      if (this.#open.get(server) === pending) this.#open.delete(server);
      open.close().catch(() => {});
    }, () => {});
  }

  /** Close every connection. */
  async close(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
  }
}
