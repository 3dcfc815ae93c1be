/**
 * The MCP client: Streamable HTTP (JSON or SSE), legacy HTTP+SSE, stdio
 * (Deno/Node, also at `@skillmux/core/stdio`), URL and header policy, and a
 * registry of servers.
 *
 * @module
 */

export * from "./types.ts";
export * from "./errors.ts";
export type * from "./transport/interface.ts";
export type * from "./client_types.ts";
export type * from "./client_handlers.ts";
export type * from "./connect_options.ts";
export * from "./client.ts";
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./_protocol.ts";
export * from "./transport/http_options.ts";
export { createStreamableHttpTransport } from "./transport/streamable_http.ts";
export { createLegacySseTransport } from "./transport/legacy_sse.ts";
export * from "./policy/mod.ts";
export * from "./registry/discover.ts";
export * from "./registry/config_formats.ts";
export * from "./registry/registry.ts";
export * from "./registry/records.ts";
export * from "./registry/errors.ts";
export * from "./registry/secrets.ts";
export * from "./skills/mod.ts";
export type * from "./auth/types.ts";
export { isOAuthError, OAuthError, type OAuthErrorCode } from "./auth/errors.ts";
