/**
 * The MCP client: Streamable HTTP (JSON or SSE), legacy HTTP+SSE, stdio
 * (Deno/Node, also at `@skillmux/core/stdio`), URL and header policy, and a
 * registry of servers.
 *
 * @module
 */

export * from "./types.ts";
export * from "./errors.ts";
export type * from "./transport.ts";
export type * from "./client_types.ts";
export * from "./client.ts";
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./_session.ts";
export * from "./http_options.ts";
export { createStreamableHttpTransport } from "./streamable_http.ts";
export { createLegacySseTransport } from "./legacy_sse.ts";
export * from "./policy/mod.ts";
export * from "./skill_resources.ts";
export * from "./discover.ts";
export * from "./config_formats.ts";
export * from "./registry.ts";
