/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05): a long-lived GET event
 * stream whose first `endpoint` event names the URL to POST messages to;
 * responses come back on the stream as `message` events, matched by id.
 *
 * @module
 */

import type { HttpTransportOptions } from "./http_options.ts";
import type { PreparedServer } from "../policy/prepare.ts";
import type { McpTransport } from "./interface.ts";
import { httpUrlOf, LazyTransport } from "./_lazy.ts";

export type { HttpTransportOptions } from "./http_options.ts";

/**
 * Create a legacy HTTP+SSE transport for a prepared server whose URL is the
 * SSE endpoint (often `/sse`). The stream opens on the first request (the transport's code
 * loads then too).
 *
 * @example Talk to a 2024-11-05 server
 * ```ts
 * import { createLegacySseTransport } from "@skillmux/core/mcp";
 * import { prepareServer } from "@skillmux/core/policy";
 * const transport = createLegacySseTransport(
 *   prepareServer({ name: "old", url: "http://127.0.0.1:3001/sse", transport: "sse" }),
 *   {},
 * );
 * const init = await transport.request({
 *   jsonrpc: "2.0",
 *   id: 1,
 *   method: "initialize",
 *   params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "demo", version: "1.0.0" } },
 * }, { timeoutMs: 5000 });
 * console.log("result" in init ? init.result.serverInfo : init.error);
 * await transport.close();
 * ```
 */
export function createLegacySseTransport(
  server: PreparedServer,
  options: HttpTransportOptions = {},
): McpTransport {
  httpUrlOf(server);
  return new LazyTransport(
    "sse",
    async () => new (await import("./_legacy_sse.ts")).LegacySseTransport(server, options),
    false,
  );
}
