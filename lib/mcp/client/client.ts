/**
 * `connect()`: one MCP server, any transport, either protocol era, behind one small client API.
 *
 * @module
 */

import type { ConnectOptions } from "./connect_options.ts";
import type { McpClient } from "./client_types.ts";
import type { McpServerConfig } from "../protocol/types.ts";

export type { ConnectOptions, ServerHint, StdioConnector } from "./connect_options.ts";

/**
 * Default timeout of discovery requests (lists, reads, prompts, ping, `initialize`): 5 s. They
 * are quick lookups; a server that takes longer is better reported than waited for.
 *
 * @example Give a slow server more time
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { DEFAULT_REQUEST_TIMEOUT_MS } from "@skillmux/core/mcp";
 * await connect({ name: "slow", url: "http://127.0.0.1:3001/mcp" }, { timeoutMs: 4 * DEFAULT_REQUEST_TIMEOUT_MS });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/**
 * Default idle timeout of `tools/call`: 60 s without an answer or a progress notification. Tools
 * do real work (a query, a build, an alignment); every progress notification starts the 60 s
 * again, so a tool that reports progress runs as long as it keeps reporting, up to
 * {@linkcode DEFAULT_MAX_TOTAL_MS}. 60 s is also the MCP TypeScript SDK's request timeout.
 *
 * @example Give one slow tool more quiet time
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { DEFAULT_CALL_TIMEOUT_MS } from "@skillmux/core/mcp";
 * const client = await connect({ name: "bio", url: "http://127.0.0.1:3001/mcp" });
 * await client.callTool("align", { reads: "a.fq" }, { timeoutMs: 5 * DEFAULT_CALL_TIMEOUT_MS });
 * await client.close();
 * ```
 */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/**
 * Default longest run of one `tools/call`, progress or not: 30 minutes (time in host handlers
 * excluded). A bound on a stuck server that keeps sending progress; work that takes hours
 * belongs in an MCP task, which this limit does not cover.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { DEFAULT_MAX_TOTAL_MS } from "@skillmux/core/mcp";
 * await connect({ name: "bio", url: "http://127.0.0.1:3001/mcp" }, { maxTotalMs: 4 * DEFAULT_MAX_TOTAL_MS });
 * ```
 */
export const DEFAULT_MAX_TOTAL_MS = 30 * 60_000;
/**
 * Default page cap for list calls; a repeated cursor also stops a listing.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { DEFAULT_MAX_PAGES } from "@skillmux/core/mcp";
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
    // The server's own settings (its registry entry) win over the client's; a call's own win
    // over both.
    timeoutMs: server.timeoutMs ?? options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    callTimeoutMs: server.callTimeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    maxTotalMs: server.maxTotalMs ?? options.maxTotalMs ?? DEFAULT_MAX_TOTAL_MS,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
  });
}
