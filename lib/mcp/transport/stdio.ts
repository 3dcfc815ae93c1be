/**
 * The stdio transport (Deno, Node): start an MCP server as a child process and
 * speak newline-delimited JSON-RPC over its stdin and stdout.
 *
 * @module
 */

import type { PreparedServer } from "../policy/prepare.ts";
import { StdioTransportImpl } from "./_stdio_transport.ts";
import type { StdioTransport, StdioTransportOptions } from "./stdio_options.ts";

export { MINIMAL_ENV } from "./_stdio_env.ts";
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_KILL_TIMEOUT_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  type StdioStartupEvent,
  type StdioTransport,
  type StdioTransportOptions,
} from "./stdio_options.ts";

/**
 * Start an MCP server as a child process (Deno and Node; not in browsers) and
 * talk newline-delimited JSON-RPC over its stdin/stdout. The child starts with
 * the first message. Details:
 *
 * - the program is started without a shell, with `args` as given, `cwd`, and
 *   an environment of the inherited variables (see `inheritEnv`) plus the
 *   server's `env`;
 * - responses are matched to requests by id; a response for an unknown id is
 *   reported as a diagnostic and ignored; stdout lines that are not JSON
 *   (banners) are diagnostics too; a line over `maxLineBytes` is a
 *   `ProtocolError` and stops the child;
 * - server requests are answered: `ping` with `{}`, anything else with -32601;
 * - **start-up**: the child is spawned once. Until it writes its first line to
 *   stdout, requests wait under its start-up allowance (`startupTimeoutMs`,
 *   the server's own or the option's, default 60 s: long enough for `npx -y`
 *   or `uvx` to fetch a package), and their own timeouts start when it has.
 *   A child that writes nothing within the allowance is stopped, and every
 *   request rejects with a `TimeoutError` quoting the last stderr lines;
 *   `onStartup` sees its stderr meanwhile;
 * - a request that times out after start-up (`timeoutMs`) rejects with
 *   `TimeoutError` and **stops the child** (a stdio server that does not
 *   answer is wedged; a `probe` request's silence only rejects it); every
 *   other pending request then rejects with `NetworkError`, as does every later one;
 * - when the child exits or cannot be started, pending and later requests
 *   reject with `NetworkError` naming the command, the exit code or signal,
 *   and the last stderr lines, with the server's secrets redacted;
 * - `close()` stops the child as the MCP spec says: it closes its stdin and
 *   waits up to `closeTimeoutMs` (default 2 s) for it to exit, then sends
 *   SIGTERM and waits up to `killTimeoutMs` (default 2 s), then SIGKILL; it
 *   resolves once the child has exited, as soon as it has. It is idempotent.
 *   A child that failed (wedged, over the line cap) gets SIGTERM at once.
 *
 * @example Talk to a stdio server by hand
 * ```ts
 * import { prepareServer } from "@skillmux/core/policy";
 * import { createStdioTransport } from "@skillmux/core/stdio";
 * const server = prepareServer({ name: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const transport = createStdioTransport(server);
 * const answer = await transport.request(
 *   { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "demo", version: "1" } } },
 *   { timeoutMs: 30_000 },
 * );
 * console.log("result" in answer);
 * await transport.close();
 * ```
 */
export function createStdioTransport(
  server: PreparedServer,
  options: StdioTransportOptions = {},
): StdioTransport {
  if (server.kind !== "stdio" || !server.command) {
    throw new TypeError(
      `createStdioTransport needs a stdio server (with a command); ${
        JSON.stringify(server.name)
      } has none`,
    );
  }
  return new StdioTransportImpl(server, options);
}

/**
 * The stdio connector for `connect()`: pass `{ stdio: stdio() }` to connect `command` servers
 * (Deno and Node). Keeping it out of `connect()` keeps child processes out of browser bundles.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { stdio } from "@skillmux/core/stdio";
 * const client = await connect(
 *   { name: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] },
 *   { stdio: stdio({ inheritEnv: "minimal" }), timeoutMs: 30_000 },
 * );
 * console.log((await client.listTools()).length);
 * await client.close();
 * ```
 */
export function stdio(
  options: StdioTransportOptions = {},
): (server: PreparedServer) => StdioTransport {
  return (server) => createStdioTransport(server, options);
}
