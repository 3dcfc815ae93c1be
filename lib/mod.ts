/**
 * skillmux: the right skills and tools for an LLM request, from many sources.
 *
 * This entry is isomorphic: it uses web-standard globals only and runs on Deno,
 * Node and in browsers. Runtime-specific parts have their own entries:
 * `@skillmux/core/fs` (filesystem storage, Deno/Node),
 * `@skillmux/core/stdio` (MCP over stdio, Deno/Node) and
 * `@skillmux/core/indexed-db` (browser storage).
 *
 * @example Resolve a skill with zero configuration
 * ```ts
 * import { resolveSkill } from "@skillmux/core";
 * const hit = await resolveSkill("samtools");
 * console.log(hit.source); // "user", "community" or "builtin"
 * console.log(hit.skill.examples[0]);
 * ```
 *
 * @module
 */

export * from "./skill/mod.ts";
export * from "./storage/mod.ts";
export * from "./mcp/mod.ts";
export * from "./resolve/mod.ts";
export * from "./catalog/mod.ts";
export * from "./prompt/mod.ts";
