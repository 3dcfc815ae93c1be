/**
 * OAuth 2.1 for MCP servers (the MCP authorization spec, 2025-11-25): discovery, registration,
 * the authorization code flow with PKCE, refresh, step-up, client credentials, and a store.
 * `connect()` loads this lazily when a server has the `auth` option.
 *
 * @module
 */

export * from "./types.ts";
export * from "./errors.ts";
export * from "./challenge.ts";
export * from "./discovery.ts";
export * from "./store.ts";
export * from "./session.ts";
export * from "./fetch.ts";
