/**
 * `connect()`: one MCP server, any transport, either protocol era, behind one small client API.
 *
 * @module
 */

import type { ConnectOptions } from "./connect_options.ts";
import type { McpClient } from "./client_types.ts";
import type { McpServerConfig } from "./types.ts";

export type { ConnectOptions, ServerHint, StdioConnector } from "./connect_options.ts";

/**
 * Default per-request timeout: 5 s.
 *
 * @example Give a slow server more time
 * ```ts
 * import { connect, DEFAULT_REQUEST_TIMEOUT_MS } from "@skillmux/core";
 * await connect({ name: "slow", url: "http://127.0.0.1:3001/mcp" }, { timeoutMs: 4 * DEFAULT_REQUEST_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/**
 * Default page cap for list calls; a repeated cursor also stops a listing.
 *
 * @example
 * ```ts
 * import { connect, DEFAULT_MAX_PAGES } from "@skillmux/core";
 * await connect({ name: "big", url: "http://127.0.0.1:3001/mcp" }, { maxPages: DEFAULT_MAX_PAGES * 10 });
 * ```
 */
export const DEFAULT_MAX_PAGES = 100;

/**
 * Connect to an MCP server. The configuration is checked first (URL and header policy, `${VAR}`
 * templating), before any network I/O. Then, over Streamable HTTP, a 2026-07-28 request comes
 * first (`server/discover`); an older server gets `initialize` (not waiting for the
 * `initialized` notification's answer), and a 2024-11-05 server the legacy HTTP+SSE transport.
 * What was learnt is kept for the endpoint (`client.hint`), so the next connect skips the probe.
 * `command` servers need `stdio` from `@skillmux/core/stdio` (Deno and Node). The client's code
 * loads with the first connection.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect(
 *   { name: "docs", url: "https://mcp.example.com/mcp", apiKey: "${DOCS_KEY}" },
 *   { timeoutMs: 3_000, env: { DOCS_KEY: "secret" } },
 * );
 * const tools = await client.listTools();
 * const result = await client.callTool("search", { query: "samtools sort" });
 * await client.close();
 * ```
 */
export async function connect(
  server: McpServerConfig,
  options: ConnectOptions = {},
): Promise<McpClient> {
  const { connectNow } = await import("./_connect.ts");
  return connectNow(server, options, {
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
  });
}
