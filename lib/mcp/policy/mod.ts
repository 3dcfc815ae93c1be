/**
 * Server configuration policy: `${VAR}` templating, the header policy, the URL
 * policy (with a connect-time DNS check), secret redaction, and
 * {@linkcode prepareServer}, which applies them all before any network I/O.
 *
 * @example
 * ```ts
 * import { prepareServer, redact } from "@skillmux/core";
 * const server = prepareServer(
 *   { name: "docs", url: "https://docs.example.com", headers: { "X-Api-Key": "${DOCS_KEY}" } },
 *   { env: { DOCS_KEY: "k-123456" } },
 * );
 * console.log(server.url?.href); // "https://docs.example.com/mcp"
 * console.log(redact("rejected k-123456", server.secrets)); // "rejected [redacted]"
 * ```
 *
 * @module
 */

export * from "./template.ts";
export * from "./headers.ts";
export * from "./url.ts";
export * from "./connect_target.ts";
export * from "./redact.ts";
export * from "./prepare.ts";
