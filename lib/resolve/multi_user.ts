/**
 * For services with many users (Deno, Node, edge runtimes): the multi-user server registry —
 * owners, global servers, sharing, built-in virtual servers, secrets sealed at rest, one record
 * per server in any storage — and per-user resolvers over it. Kept apart from `.` so browser
 * pages do not load it.
 *
 * @example
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { createMultiUserRegistry, createUserResolvers } from "@skillmux/core/multi-user";
 * const registry = createMultiUserRegistry({ storage: createMemoryStorage() });
 * const resolvers = createUserResolvers({ registry });
 * console.log((await resolvers.resolve("ada", "samtools")).source); // "builtin"
 * await resolvers.dispose();
 * ```
 *
 * @module
 */

export {
  assertUserId,
  BUILTIN_SKILLS_SERVER,
  type BuiltinServer,
  createMultiUserRegistry,
  type MultiUserRegistry,
  type MultiUserRegistryOptions,
  type UserRegistryChange,
  type UserServerRegistry,
} from "../mcp/registry/users.ts";
export { createUserResolvers, type UserResolvers, type UserResolversOptions } from "./users.ts";
