// Private: the registry's methods over a record store — add, update, remove, import, ping,
// refresh, discovery — shared by the config.toml registry and every user's view.
// Long because: every method closes over the same record store, options and change listeners
// (registryOn), and a split would pass that state around.

import { connect, type ConnectOptions } from "../client/client.ts";
import type { CallOptions } from "../client/client_types.ts";
import { PolicyError } from "../protocol/errors.ts";
import { prepareServer } from "../policy/prepare.ts";
import { checkLaunchCommand } from "../policy/launch.ts";
import type { McpServerConfig } from "../protocol/types.ts";
import { discoverServer, type ServerDiscovery } from "./discover.ts";
import { ForbiddenError } from "./errors.ts";
import {
  applyServerPatch,
  checkServerDescription,
  patchChangesReach,
  type RegisteredServer,
  type ServerStatus,
} from "./records.ts";
import { gone, type RecordStore } from "./_store.ts";
import type {
  CheckServersOptions,
  PingResult,
  RefreshResult,
  RegistryChange,
  ServerRegistry,
} from "./types.ts";
import { displayablePings } from "./_displayable.ts";
import { mapLimit } from "../../_pool.ts";
import { DEFAULT_STDIO_CONCURRENCY } from "./types.ts";

/**
 * `fn` over `servers` in order: HTTP servers all at once, stdio servers (processes started here)
 * at most `limit` at a time.
 */
async function checkAll<R>(
  servers: readonly RegisteredServer[],
  limit: number | undefined,
  fn: (server: RegisteredServer) => Promise<R>,
): Promise<R[]> {
  const stdio = servers.filter((s) => s.command !== undefined);
  const [local, remote] = await Promise.all([
    mapLimit(stdio, limit ?? DEFAULT_STDIO_CONCURRENCY, fn),
    Promise.all(servers.filter((s) => s.command === undefined).map(fn)),
  ]);
  return servers.map((s) => s.command !== undefined ? local.shift()! : remote.shift()!);
}

/** How a view checks and shows servers. */
export interface ViewOptions {
  /** Options for every connection, and the policy every server is checked against. */
  connect?: ConnectOptions;
  /** Accept stdio servers (default `true`). */
  allowStdio?: boolean;
  /** Hide the secrets of servers the caller does not own (default `false`). */
  masked?: boolean;
  /** The listeners `onChange` adds to (default: the view's own); a stand-in shares its set. */
  listeners?: Set<(change: RegistryChange) => void>;
}

/** A registry view, with the lookups users.ts builds on. */
export interface RegistryView extends ServerRegistry {
  /** The server `target` names, owned by the caller (else `PolicyError` or `ForbiddenError`). */
  owned(target: string, verb: string): Promise<RegisteredServer>;
}

const describe = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    error: error instanceof Error ? error.message : String(error),
    kind: error instanceof Error ? error.name : "Error",
    // An OAuthError's code (e.g. `sign_in_required`): what a host acts on (show "Sign in").
    ...(error instanceof Error && error.name === "OAuthError" && typeof code === "string"
      ? { code }
      : {}),
  };
};

/** A {@linkcode ServerRegistry} over `store`. */
export function registryOn(store: RecordStore, options: ViewOptions = {}): RegistryView {
  // Adds and imports of one view run one at a time, discovery included, as they always have.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  const listeners = options.listeners ?? new Set<(change: RegistryChange) => void>();
  const changed = <T>(kind: RegistryChange["kind"], names: string[], value: T): T => {
    for (const listener of listeners) {
      try {
        listener({ kind, names });
      } catch { /* a listener's failure is its own */ }
    }
    return value;
  };

  function check(server: McpServerConfig & { description?: string }): void {
    prepareServer(server, options.connect);
    checkLaunchCommand(server);
    if (options.allowStdio === false && server.command !== undefined) {
      throw new PolicyError(
        "stdio servers are not allowed in this registry: they would run a program on the host",
        { field: "command", server: server.name },
      );
    }
    if (server.description !== undefined) checkServerDescription(server.description);
  }

  const show = (server: RegisteredServer): RegisteredServer => {
    if (!options.masked || store.owns(server)) return server;
    const { apiKey: _k, headers: _h, env: _e, sharedWith: _s, ...visible } = server;
    return visible;
  };

  /** The protocol era learnt at the last discovery: connecting with it skips the era probe. */
  async function hintOf(server: McpServerConfig): Promise<ServerDiscovery["hint"]> {
    if (!("id" in server)) return undefined; // not saved yet: nothing learnt
    const text = await store.storage.get(store.cacheKey(server as RegisteredServer))
      .catch(() => undefined);
    try {
      return text === undefined ? undefined : (JSON.parse(text) as ServerDiscovery).hint;
    } catch {
      return undefined; // a damaged cache only costs the era probe
    }
  }

  async function use<T>(
    server: McpServerConfig,
    call: CallOptions,
    fn: (client: Awaited<ReturnType<typeof connect>>) => Promise<T>,
  ): Promise<T> {
    const client = await connect(server, {
      ...options.connect,
      // Without an `auth` option, a server that needs a sign-in still says so ("sign-in needed").
      auth: options.connect?.auth ?? {},
      hint: options.connect?.hint ?? await hintOf(server),
      signal: call.signal,
      timeoutMs: call.timeoutMs,
    });
    try {
      return await fn(client);
    } finally {
      await client.close().catch(() => {});
    }
  }

  async function select(names?: readonly string[]): Promise<RegisteredServer[]> {
    const all = (await store.list()).filter((s) => s.url !== undefined || s.command !== undefined);
    if (names === undefined) return all.filter((s) => s.enabled !== false);
    return names.map((name) => {
      const found = all.find((s) => s.id === name) ?? all.find((s) => s.name === name) ??
        all.find((s) => s.url === name);
      if (!found) {
        throw new PolicyError(`No server named "${name}" is registered`, { field: "name" });
      }
      return found;
    });
  }

  const keep = (server: RegisteredServer, status: ServerStatus) =>
    store.setStatus(server, status).catch(() => {}); // the row already says what happened

  async function cache(server: RegisteredServer, discovery: ServerDiscovery): Promise<void> {
    await store.storage.set(store.cacheKey(server), JSON.stringify(discovery));
  }

  /** `server` after `via` connected and discovered it: its status says so (not "never checked"). */
  async function connected(
    server: RegisteredServer,
    via: "add" | "update",
    discovery: ServerDiscovery,
  ): Promise<RegisteredServer> {
    await cache(server, discovery);
    const status: ServerStatus = { ok: true, at: new Date().toISOString(), via };
    await keep(server, status);
    return { ...server, status };
  }

  async function owned(target: string, verb: string): Promise<RegisteredServer> {
    const found = await store.lookup(target);
    if (!found) throw gone(target);
    const { server } = found;
    if (server.scope === "builtin") {
      throw new ForbiddenError(
        `Cannot ${verb} "${server.name}": built-in servers cannot be changed`,
        {
          server: server.name,
        },
      );
    }
    if (!found.owned) {
      throw new ForbiddenError(`Cannot ${verb} server "${server.name}": only its owner may`, {
        server: server.name,
      });
    }
    return server;
  }

  return {
    owned,
    async list() {
      return (await store.list()).map(show);
    },
    async get(target) {
      const found = await store.lookup(target);
      return found && show(found.server);
    },
    async add(server, addOptions = {}) {
      check(server);
      const replace = addOptions.replace ?? false;
      return await serial(async () => {
        await store.precheck([server], replace);
        let discovery: ServerDiscovery | undefined;
        if (addOptions.discover !== false) {
          discovery = await use(server, addOptions, (c) => discoverServer(c, addOptions));
        }
        let [saved] = await store.insert([server], replace);
        if (discovery) saved = await connected(saved, "add", discovery);
        return changed("servers", [saved.name], { server: saved, discovery });
      });
    },
    async update(target, patch, updateOptions = {}) {
      const current = await owned(target, "update");
      const next = applyServerPatch(current, patch);
      check(next);
      let discovery: ServerDiscovery | undefined;
      if (updateOptions.discover ?? (patchChangesReach(patch) && next.enabled !== false)) {
        discovery = await use(next, updateOptions, (c) => discoverServer(c, updateOptions));
      }
      const saved = await store.modify(current.id, (latest) => {
        const changed = applyServerPatch(latest, patch);
        check(changed);
        return changed;
      }, updateOptions.ifRevision);
      const latest = discovery ? await connected(saved, "update", discovery) : saved;
      return changed("servers", [...new Set([current.name, saved.name])], {
        server: show(latest),
        discovery,
      });
    },
    async remove(target) {
      const removed = await store.remove((await owned(target, "remove")).id);
      return changed("servers", [removed.name], removed);
    },
    async import(servers, importOptions = {}) {
      servers.forEach(check);
      const added = await serial(() => store.insert(servers, importOptions.replace ?? false));
      return changed("servers", added.map((s) => s.name), added);
    },
    async ping(names, options: CheckServersOptions = {}) {
      const { concurrency, ...call } = options;
      const servers = await select(names);
      return displayablePings(
        await checkAll(servers, concurrency, async (server): Promise<PingResult> => {
          const row = { name: server.name, id: server.id };
          try {
            return await use(server, call, async (client) => {
              const latencyMs = await client.ping(call);
              const found = await discoverServer(client, call);
              await keep(server, {
                ok: true,
                at: new Date().toISOString(),
                via: "ping",
                latencyMs,
              });
              return {
                ...row,
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
            const failed = { ...row, ok: false as const, ...describe(error) };
            await keep(server, {
              ok: false,
              at: new Date().toISOString(),
              via: "ping",
              ...describe(error),
            });
            return failed;
          }
        }),
      );
    },
    async refresh(names, options: CheckServersOptions = {}) {
      const { concurrency, ...call } = options;
      const servers = await select(names);
      const rows = await checkAll(servers, concurrency, async (server): Promise<RefreshResult> => {
        const row = { name: server.name, id: server.id };
        try {
          const discovery = await use(server, call, (client) => discoverServer(client, call));
          await cache(server, discovery);
          await keep(server, { ok: true, at: discovery.discoveredAt, via: "refresh" });
          return { ...row, ok: true, discovery };
        } catch (error) {
          await keep(server, {
            ok: false,
            at: new Date().toISOString(),
            via: "refresh",
            ...describe(error),
          });
          return { ...row, ok: false, ...describe(error) };
        }
      });
      const refreshed = rows.filter((r) => r.ok).map((r) => r.name);
      return refreshed.length > 0 ? changed("discovery", refreshed, rows) : rows;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async invalidate(target) {
      const found = await store.lookup(target);
      if (found === undefined) return;
      await store.storage.delete(store.cacheKey(found.server));
      changed("discovery", [found.server.name], undefined);
    },
    async discovery(target) {
      const found = await store.lookup(target);
      const text = found && await store.storage.get(store.cacheKey(found.server));
      return text === undefined ? undefined : JSON.parse(text) as ServerDiscovery;
    },
  };
}
