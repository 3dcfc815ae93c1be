/**
 * Per-user resolution for a multi-user service: each user gets the priority chain of
 * `@skillmux/core`'s rules built from their own space — their skills, then shared (community or
 * global) skills, then the MCP servers their registry view lists, then the built-ins.
 *
 * @module
 */

import type { MultiUserRegistry } from "../mcp/registry/users.ts";
import { assertUserId } from "../mcp/registry/users.ts";
import type { Storage } from "../storage/types.ts";
import { createBuiltinSource } from "./builtin_source.ts";
import {
  createMcpSkillSource,
  type McpSkillSource,
  type McpSkillSourceOptions,
} from "./mcp_source.ts";
import type { ResolverParseOptions } from "./types.ts";
import { createResolver } from "./resolver.ts";
import { createStorageSource } from "./storage_source.ts";
import type {
  Resolution,
  ResolveOptions,
  Resolver,
  SkillListing,
  SkillSource,
  SourceTier,
} from "./types.ts";

/** Options of {@linkcode createUserResolvers}. */
export interface UserResolversOptions {
  /** The registry whose per-user views give each user's MCP servers. */
  registry: MultiUserRegistry;
  /** Where users' own skills live (label `user`); none when omitted. */
  skills?: Storage;
  /** The key prefix of a user's skills in `skills` (default `users/<URI-encoded id>/skills/`). */
  skillsPrefix?: (userId: string) => string;
  /** Skills every user shares, asked after the user's own (e.g. a `community` storage source). */
  shared?: SourceTier;
  /** End every chain with the built-in skills (default `true`). */
  builtins?: boolean;
  /** Options of every MCP server source (listing TTL, retry pause, connection options). */
  mcp?: McpSkillSourceOptions;
  /** How long a user's chain is reused before their server list is read again (default 30000 ms). */
  ttlMs?: number;
  /** How many users' chains are kept; the least recently used go first (default 1000). */
  maxUsers?: number;
  /** Per-source timeout in milliseconds. */
  timeoutMs?: number;
  /** Parser options for every source's content. */
  parse?: ResolverParseOptions;
}

/** Per-user resolvers; see {@linkcode createUserResolvers}. */
export interface UserResolvers {
  /** The resolver of `userId` (built on first use, reused for `ttlMs`). */
  forUser(userId: string): Promise<Resolver>;
  /** Resolve a skill for `userId`. */
  resolve(userId: string, name: string, options?: ResolveOptions): Promise<Resolution>;
  /** Every skill `userId` can see. */
  list(userId: string, options?: ResolveOptions): Promise<SkillListing>;
  /** Forget the chain of `userId` (of every user when omitted); the next call rebuilds it. */
  invalidate(userId?: string): void;
  /** How many users' chains are cached. */
  readonly size: number;
  /** Close every MCP connection and stop listening to the registry. */
  dispose(): Promise<void>;
}

interface Chain {
  at: number;
  resolver: Promise<Resolver>;
}

/**
 * Resolvers for many users over one {@linkcode MultiUserRegistry}. A user's chain is theirs:
 * their skills (`skills` under `skillsPrefix(userId)`), `shared`, their MCP servers (those they
 * own, those shared with them, global ones, in that order, asked in parallel), the built-ins.
 * Chains are cached per user (LRU, `ttlMs`) and dropped when this instance's registry changes a
 * server the user sees. MCP sources are pooled by server id and revision: a server's listing
 * is the same for everyone who may use it, and only those users' chains hold it, so no user is
 * ever served another user's skill or server listing.
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { createMultiUserRegistry, createUserResolvers } from "@skillmux/core/multi-user";
 * const skills = createMemoryStorage();
 * await skills.set("users/ada/skills/notes.md", "---\nname: notes\ndescription: Ada's notes. Use when asked.\n---\n");
 * const resolvers = createUserResolvers({ registry: createMultiUserRegistry({ storage: createMemoryStorage() }), skills });
 * console.log((await resolvers.resolve("ada", "notes")).source); // "user"
 * console.log((await resolvers.resolve("bob", "samtools")).source); // "builtin"
 * await resolvers.dispose();
 * ```
 */
export function createUserResolvers(options: UserResolversOptions): UserResolvers {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxUsers = options.maxUsers ?? 1000;
  const prefixOf = options.skillsPrefix ??
    ((id: string) => `users/${encodeURIComponent(id)}/skills/`);
  const chains = new Map<string, Chain>();
  const pool = new Map<string, { revision: number; source: McpSkillSource }>();
  const builtin = options.builtins === false ? undefined : createBuiltinSource();
  const stop = options.registry.onChange(({ users }) => {
    if (users === "all") chains.clear();
    else for (const user of users) chains.delete(user);
  });

  function sourceFor(
    server: Parameters<typeof createMcpSkillSource>[0] & { id: string; revision?: number },
  ): McpSkillSource {
    const revision = server.revision ?? 0;
    const pooled = pool.get(server.id);
    if (pooled && pooled.revision === revision) return pooled.source;
    if (pooled) pooled.source.dispose().catch(() => {});
    const source = createMcpSkillSource(server, options.mcp);
    pool.set(server.id, { revision, source });
    return source;
  }

  async function build(userId: string): Promise<Resolver> {
    const servers = await options.registry.forUser(userId).connectable();
    const sources: SourceTier[] = [];
    if (options.skills) {
      sources.push(
        createStorageSource({ label: "user", storage: options.skills, prefix: prefixOf(userId) }),
      );
    }
    if (options.shared) sources.push(options.shared);
    if (servers.length > 0) sources.push(servers.map(sourceFor) as SkillSource[]);
    if (builtin) sources.push(builtin);
    return createResolver({ sources, timeoutMs: options.timeoutMs, parse: options.parse });
  }

  function forUser(userId: string): Promise<Resolver> {
    assertUserId(userId);
    const cached = chains.get(userId);
    if (cached && Date.now() - cached.at < ttlMs) {
      chains.delete(userId); // most recently used goes last
      chains.set(userId, cached);
      return cached.resolver;
    }
    const chain: Chain = { at: Date.now(), resolver: build(userId) };
    chains.delete(userId);
    chains.set(userId, chain);
    chain.resolver.catch(() => {
      if (chains.get(userId) === chain) chains.delete(userId);
    });
    while (chains.size > maxUsers) chains.delete(chains.keys().next().value!);
    return chain.resolver;
  }

  return {
    forUser,
    async resolve(userId, name, call) {
      return await (await forUser(userId)).resolve(name, call);
    },
    async list(userId, call) {
      return await (await forUser(userId)).list(call);
    },
    invalidate(userId) {
      if (userId === undefined) chains.clear();
      else chains.delete(userId);
    },
    get size() {
      return chains.size;
    },
    async dispose() {
      stop();
      chains.clear();
      const open = [...pool.values()];
      pool.clear();
      await Promise.all(open.map(({ source }) => source.dispose()));
    },
  };
}
