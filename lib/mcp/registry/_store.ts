// Private: what the registry's methods need from where servers are kept — config.toml (one
// document, one implicit owner) or one record per server (users, scopes, sharing).

import type { Storage } from "../../storage/types.ts";
import { PolicyError } from "../protocol/errors.ts";
import type { McpServerConfig } from "../protocol/types.ts";
import type { RegisteredServer, ServerStatus } from "./records.ts";

/** A server found by id, name or URL, and whether the caller owns it. */
export interface Found {
  server: RegisteredServer;
  owned: boolean;
}

/** Where a registry keeps its servers. Secrets are open in everything it returns. */
export interface RecordStore {
  /** Where discovery caches live. */
  readonly storage: Storage;
  /** Every server the caller can see, in order (owned first), with its status. */
  list(): Promise<RegisteredServer[]>;
  /** Whether the caller owns `server`. */
  owns(server: RegisteredServer): boolean;
  /** A visible server by id, then name, then URL (owned ones first), or `undefined`. */
  lookup(target: string): Promise<Found | undefined>;
  /** Throw `PolicyError` if inserting `servers` would clash with owned ones. */
  precheck(servers: readonly McpServerConfig[], replace: boolean): Promise<void>;
  /** Save new servers owned by the caller (a same-name one is replaced when `replace`). */
  insert(servers: readonly McpServerConfig[], replace: boolean): Promise<RegisteredServer[]>;
  /** Change an owned server; `change` may run again after a lost race, and may throw. */
  modify(
    id: string,
    change: (current: RegisteredServer) => RegisteredServer,
    ifRevision?: number,
  ): Promise<RegisteredServer>;
  /** Delete an owned server, its status and its discovery cache. */
  remove(id: string): Promise<RegisteredServer>;
  /** Keep the outcome of a ping or refresh (best effort). */
  setStatus(server: RegisteredServer, status: ServerStatus): Promise<void>;
  /** The storage key of a server's discovery cache. */
  cacheKey(server: RegisteredServer): string;
}

/**
 * Check `incoming` against the servers the caller owns: a same-name server is refused unless
 * `replace` (its index is returned), and so is another server with the same URL.
 */
export function clashIndex(
  owned: readonly McpServerConfig[],
  incoming: McpServerConfig & { id?: string },
  replace: boolean,
): number {
  const same = owned.findIndex((s) =>
    s.name === incoming.name &&
    (incoming.id === undefined || (s as RegisteredServer).id !== incoming.id)
  );
  if (same >= 0 && !replace) {
    throw new PolicyError(
      `Server "${incoming.name}" is already registered; remove it first or replace it`,
      { field: "name" },
    );
  }
  const clash = owned.find((s, i) =>
    i !== same && s.name !== incoming.name && incoming.url && s.url === incoming.url &&
    (incoming.id === undefined || (s as RegisteredServer).id !== incoming.id)
  );
  if (clash) {
    throw new PolicyError(`Server "${clash.name}" already has the URL ${incoming.url}`, {
      field: "url",
    });
  }
  return same;
}

/** The configuration part of a server: no id, status or ownership fields. */
export function configOf(server: RegisteredServer): McpServerConfig & { description?: string } {
  const { id: _id, status: _s, owner: _o, scope: _sc, sharedWith: _sw, revision: _r, ...config } =
    server;
  return config;
}

/** The error for a server that is not there (never seen, or removed meanwhile). */
export function gone(target: string): PolicyError {
  return new PolicyError(`No server matches "${target}" (by id, name or URL)`, { field: "name" });
}
