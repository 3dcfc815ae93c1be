/**
 * The server registry: MCP servers stored through any storage adapter as
 * `[[mcp.servers]]` in `config.toml`, with add, update, list, remove, ping and refresh.
 * For many users and shared databases, see `createMultiUserRegistry`.
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import type { ConnectOptions } from "../client/client.ts";
import { createSecretBox, type SecretBoxOptions } from "../sealing/secrets.ts";
import type { RegistryChange, ServerRegistry } from "./types.ts";

export { DEFAULT_STDIO_CONCURRENCY } from "./types.ts";
export type {
  AddServerOptions,
  CheckServersOptions,
  PingFailure,
  PingResult,
  RefreshResult,
  RegistryChange,
  ServerRegistry,
  UpdateServerOptions,
} from "./types.ts";

/** Options of {@linkcode createServerRegistry}. */
export interface ServerRegistryOptions {
  /** Where the configuration lives (use `createFsStorage({ root, private: true })` on Deno/Node: it holds API keys). */
  storage: Storage;
  /** The storage key of the configuration document (default `config.toml`). */
  key?: string;
  /** Options for every connection the registry opens. */
  connect?: ConnectOptions;
  /**
   * Encrypt API keys, header values and stdio env values in the document (AES-GCM). Without it
   * they are stored in plain text: keep the file private (mode 0600).
   */
  secrets?: SecretBoxOptions;
}

/**
 * A registry of MCP servers kept in `storage` as `[[mcp.servers]]` of `config.toml`, with one
 * implicit owner. Each server gets a stable id (its name, until a rename; then `id = "…"` is
 * written), a description and the status of its last ping or refresh (kept under
 * `cache/status/`). Writes are serialised in this process; the document is rewritten whole.
 *
 * @example
 * ```ts
 * import { createServerRegistry } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const registry = createServerRegistry({ storage: createFsStorage({ root: "./.skillmux", private: true }) });
 * await registry.add({ name: "docs", url: "http://127.0.0.1:3001/mcp", description: "Team docs" });
 * await registry.update("docs", { description: "Team docs and runbooks" }, { discover: false });
 * for (const row of await registry.ping()) console.log(row.name, row.ok ? `${row.latencyMs} ms` : row.error);
 * ```
 */
export function createServerRegistry(options: ServerRegistryOptions): ServerRegistry {
  const box = options.secrets ? createSecretBox(options.secrets) : undefined;
  // The registry's code loads with its first call (pages that never touch it never download it);
  // `onChange` works before that, through the listener set the loaded view shares.
  const listeners = new Set<(change: RegistryChange) => void>();
  let loading: Promise<ServerRegistry> | undefined;
  const view = () =>
    loading ??= Promise.all([import("./_toml_store.ts"), import("./_view.ts")]).then(
      ([{ createTomlStore }, { registryOn }]) => {
        const { owned: _owned, ...registry } = registryOn(
          createTomlStore(options.storage, options.key ?? "config.toml", box),
          { connect: options.connect, listeners },
        );
        return registry;
      },
      (error) => {
        loading = undefined; // a chunk that failed to download may load on the next call
        throw error;
      },
    );
  return {
    list: async () => (await view()).list(),
    get: async (target) => (await view()).get(target),
    add: async (server, opts) => (await view()).add(server, opts),
    update: async (target, patch, opts) => (await view()).update(target, patch, opts),
    remove: async (target) => (await view()).remove(target),
    import: async (servers, opts) => (await view()).import(servers, opts),
    ping: async (names, opts) => (await view()).ping(names, opts),
    refresh: async (names, opts) => (await view()).refresh(names, opts),
    discovery: async (target) => (await view()).discovery(target),
    invalidate: async (target) => (await view()).invalidate(target),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
