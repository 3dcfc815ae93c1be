/**
 * MCP registries — called *server directories* in the code, so they are never confused with
 * the user's own server registry: the official `/v0.1/` API and the BioContext format, search,
 * what an entry needs and runs, and plans that become registry entries.
 *
 * @module
 */

export * from "./errors.ts";
export * from "./server_json.ts";
export type * from "./types.ts";
export * from "./official.ts";
export * from "./biocontext.ts";
export * from "./search.ts";
export * from "./requirements.ts";
export * from "./plan.ts";
export * from "./bundle.ts";
