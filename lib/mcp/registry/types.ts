/**
 * The registry's public interface: the methods every registry has — over `config.toml`, and
 * each user's view of a multi-user registry.
 *
 * @module
 */

import type { CallOptions } from "../client/client_types.ts";
import type { Implementation, McpServerConfig, TransportKind } from "../protocol/types.ts";
import type { ServerDiscovery } from "./discover.ts";
import type { RegisteredServer, ServerPatch } from "./records.ts";

/** One row of {@linkcode ServerRegistry.ping}. */
export type PingResult =
  | {
    name: string;
    id: string;
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
  | PingFailure;

/**
 * A failed row of `ping` or `refresh`: the redacted message, the error's name (`kind`), and for
 * an `OAuthError` its `code` — `sign_in_required` means "sign-in needed" (show a sign-in).
 */
export interface PingFailure {
  /** The server name. */
  name: string;
  /** The server id. */
  id: string;
  /** Always `false`. */
  ok: false;
  /** What went wrong (no secrets). */
  error: string;
  /** The error's name, e.g. `HttpError`, `TimeoutError`, `OAuthError`. */
  kind: string;
  /** An `OAuthError`'s code, e.g. `sign_in_required`. */
  code?: string;
}

/** One row of {@linkcode ServerRegistry.refresh}. */
export type RefreshResult =
  | { name: string; id: string; ok: true; discovery: ServerDiscovery }
  | PingFailure;

/** Options of {@linkcode ServerRegistry.add}. */
export interface AddServerOptions extends CallOptions {
  /** Connect and discover before saving (default `true`); nothing is saved if that fails. */
  discover?: boolean;
  /** Replace a server of the same name instead of refusing. */
  replace?: boolean;
}

/** Options of {@linkcode ServerRegistry.update}. */
export interface UpdateServerOptions extends CallOptions {
  /**
   * Connect and discover before saving; nothing is saved if that fails. Default: `true` when
   * the patch changes how to reach the server (URL, command, key, headers, transport), and the
   * server is enabled.
   */
  discover?: boolean;
  /** Refuse with `ConflictError` unless the server is still at this revision (multi-user registries). */
  ifRevision?: number;
}

/** Options of {@linkcode ServerRegistry.ping} and {@linkcode ServerRegistry.refresh}. */
export interface CheckServersOptions extends CallOptions {
  /**
   * How many stdio servers (programs this machine starts) are started at once (default
   * {@linkcode DEFAULT_STDIO_CONCURRENCY}, 4); HTTP servers are all asked at once. Each server's
   * timeout starts when its turn comes, so one waiting behind others is not timed out for it.
   */
  concurrency?: number;
}

/**
 * How many stdio servers `ping` and `refresh` start at once by default: 4. Starting every
 * registered program at once on a loaded machine turns slow starts into false failures.
 *
 * @example
 * ```ts
 * import { createMemoryStorage, createServerRegistry } from "@skillmux/core";
 * import { DEFAULT_STDIO_CONCURRENCY } from "@skillmux/core/mcp";
 * const registry = createServerRegistry({ storage: createMemoryStorage() });
 * await registry.ping(undefined, { concurrency: DEFAULT_STDIO_CONCURRENCY * 2 });
 * ```
 */
export const DEFAULT_STDIO_CONCURRENCY = 4;

/** What {@linkcode ServerRegistry.onChange} listeners receive. */
export interface RegistryChange {
  /** `servers`: added, updated, removed or imported; `discovery`: tools and resources re-discovered. */
  kind: "servers" | "discovery";
  /** The names of the servers concerned. */
  names: string[];
}

/** A stored list of MCP servers. */
export interface ServerRegistry {
  /** Every registered server, in registration order, with id, description and status. */
  list(): Promise<RegisteredServer[]>;
  /** One server by id, name or URL. */
  get(idOrName: string): Promise<RegisteredServer | undefined>;
  /** Validate, connect, discover, then save. Throws `PolicyError` for bad input; saves nothing on failure. */
  add(
    server: McpServerConfig & { description?: string },
    options?: AddServerOptions,
  ): Promise<{ server: RegisteredServer; discovery?: ServerDiscovery }>;
  /**
   * Change a server, validated like `add` (policy, optional connection check); nothing is saved
   * on failure. The id stays, whatever changes.
   */
  update(
    idOrName: string,
    patch: ServerPatch,
    options?: UpdateServerOptions,
  ): Promise<{ server: RegisteredServer; discovery?: ServerDiscovery }>;
  /** Remove by id, name or URL; throws `PolicyError` when nothing matches. */
  remove(idOrNameOrUrl: string): Promise<RegisteredServer>;
  /** Add many at once (from `parseMcpServersJson` or `parseServersToml`), validated first, without connecting. */
  import(
    servers: readonly McpServerConfig[],
    options?: { replace?: boolean },
  ): Promise<RegisteredServer[]>;
  /**
   * Ping every enabled server (or those named) in parallel (stdio servers a few at a time, see
   * `concurrency`); one failure never hides the others. Keeps each status.
   */
  ping(names?: readonly string[], options?: CheckServersOptions): Promise<PingResult[]>;
  /**
   * Re-discover tools, resources and templates and cache them with the time of discovery, in
   * parallel as `ping` does. Keeps each status.
   */
  refresh(names?: readonly string[], options?: CheckServersOptions): Promise<RefreshResult[]>;
  /** The cached discovery of a server, if any. */
  discovery(idOrName: string): Promise<ServerDiscovery | undefined>;
  /** Drop a server's cached discovery (its lists changed); the next `refresh` makes a new one. */
  invalidate(idOrName: string): Promise<void>;
  /** Call `listener` after changes made through this registry; returns a function that stops it. */
  onChange(listener: (change: RegistryChange) => void): () => void;
}
