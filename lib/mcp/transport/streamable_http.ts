/**
 * The Streamable HTTP transport (MCP 2025-03-26 and later): one endpoint,
 * every message a POST answered with JSON or an SSE stream, `Mcp-Session-Id`
 * sessions, `MCP-Protocol-Version` after negotiation, resumption with
 * `Last-Event-ID`, and DELETE to end a session.
 *
 * @module
 */

import type { HttpTransportOptions } from "./http_options.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import type { McpTransport } from "./interface.ts";
import { httpUrlOf, LazyTransport } from "./_lazy.ts";

export type { HttpTransportOptions } from "./http_options.ts";

/**
 * Create a Streamable HTTP transport for a prepared server. Nothing is sent
 * until the first request (the transport's code loads then too); the client then runs the
 * handshake over it.
 *
 * @example Initialise by hand and list tools
 * ```ts
 * import { createStreamableHttpTransport } from "@skillmux/core/mcp";
 * import { prepareServer } from "@skillmux/core/policy";
 * const transport = createStreamableHttpTransport(
 *   prepareServer({ name: "local", url: "http://127.0.0.1:3001/mcp" }),
 *   { maxResponseBytes: 1 << 20 },
 * );
 * const init = await transport.request({
 *   jsonrpc: "2.0",
 *   id: 1,
 *   method: "initialize",
 *   params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "demo", version: "1.0.0" } },
 * }, { timeoutMs: 5000, idempotent: true });
 * if ("result" in init) transport.setProtocolVersion(String(init.result.protocolVersion));
 * await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
 * console.log(await transport.request({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { idempotent: true }));
 * await transport.close();
 * ```
 */
export function createStreamableHttpTransport(
  server: PreparedServer,
  options: HttpTransportOptions = {},
): McpTransport {
  httpUrlOf(server);
  return new LazyTransport(
    "streamable-http",
    async () =>
      new (await import("./_streamable_http.ts")).StreamableHttpTransport(server, options),
    true,
  );
}
