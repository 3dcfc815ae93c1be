/**
 * The MCP client: Streamable HTTP (JSON or SSE), legacy HTTP+SSE, stdio
 * (Deno/Node, also at `@skillmux/core/stdio`), URL and header policy, and a
 * registry of servers.
 *
 * @module
 */

export * from "./protocol/types.ts";
export * from "./protocol/errors.ts";
export type * from "./transport/interface.ts";
export type * from "./client/client_types.ts";
export type * from "./client/client_handlers.ts";
export type * from "./client/connect_options.ts";
export * from "./client/client.ts";
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./client/_protocol.ts";
export * from "./transport/http_options.ts";
export { createStreamableHttpTransport } from "./transport/streamable_http.ts";
export { createLegacySseTransport } from "./transport/legacy_sse.ts";
export * from "./policy/mod.ts";
export * from "./registry/discover.ts";
export * from "./registry/config_formats.ts";
export * from "./registry/registry.ts";
export * from "./registry/records.ts";
export * from "./registry/errors.ts";
export * from "./sealing/secrets.ts";
export * from "./skills/mod.ts";
export type * from "./auth/types.ts";
export { isOAuthError, OAuthError, type OAuthErrorCode } from "./auth/errors.ts";
