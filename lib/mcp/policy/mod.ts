/**
 * Server configuration policy: `${VAR}` templating, the header policy, the URL
 * policy (with a connect-time DNS check), secret redaction, and
 * {@linkcode prepareServer}, which applies them all before any network I/O.
 *
 * @example
 * ```ts
 * import { prepareServer, redact } from "@skillmux/core/policy";
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

export { MAX_HEADER_VALUE_BYTES, MAX_HEADERS_TOTAL_BYTES } from "./_header_value.ts";
export { checkConnectTarget, type ConnectTargetOptions } from "./connect_target.ts";
export {
  blockedHeaderReason,
  checkHeaderName,
  checkHeaders,
  checkHeaderValue,
  type HeaderPolicyOptions,
} from "./headers.ts";
export { type PreparedServer, prepareServer, type PrepareServerOptions } from "./prepare.ts";
export { MIN_SECRET_LENGTH, redact, REDACTED, type RedactOptions } from "./redact.ts";
export { expandTemplate } from "./template.ts";
export {
  checkUrl,
  type HostLookup,
  isLoopbackHost,
  type ResolvedAddress,
  type UrlPolicyOptions,
} from "./url.ts";
