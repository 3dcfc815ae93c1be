/**
 * The priority skill resolver: sources in order, first valid hit wins.
 *
 * @module
 */

export * from "./types.ts";
export * from "./errors.ts";
export * from "./resolver.ts";
export * from "./storage_source.ts";
export * from "./builtin_source.ts";
export * from "./skill_resources.ts";
export * from "./mcp_source.ts";
export * from "./default_sources.ts";
