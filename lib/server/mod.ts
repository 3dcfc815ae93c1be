/**
 * Serve skills over MCP (Deno and Node): `serveSkills` exposes a folder of skills, the built-in
 * skills or any resolver as a Streamable HTTP MCP server with `skill://<name>` resources and the
 * tools `search_skills` and `get_skill`.
 *
 * @example
 * ```ts
 * import { serveSkills } from "@skillmux/core/server";
 * const server = await serveSkills(); // the built-in skills on 127.0.0.1, any free port
 * console.log(server.url); // e.g. "http://127.0.0.1:41234/mcp"
 * await server.close();
 * ```
 *
 * On npm, `@modelcontextprotocol/sdk` is an optional peer dependency: install it next to
 * `@skillmux/core` to use this entry (`serveSkills` says so when it is missing).
 *
 * @module
 */

import { importPeer } from "../_peer.ts";
import type { ServeSkillsOptions, SkillsServer } from "./types.ts";
import type { GatewayServer, ServeGatewayOptions } from "./gateway_types.ts";

export type { ServedSkills, ServeSkillsOptions, SkillsServer } from "./types.ts";
export type {
  GatewayPins,
  GatewayServer,
  GatewayUsers,
  ServeGatewayOptions,
} from "./gateway_types.ts";

/**
 * The official MCP SDK, which the server (and only the server) runs on. On npm it is an optional
 * peer dependency, so a client-only install does not pull it; keep in step with package.json.
 */
const SDK = {
  name: "@modelcontextprotocol/sdk",
  range: "^1.32.2",
  entry: "@skillmux/core/server",
};

/**
 * Serve skills over MCP (Streamable HTTP at `/mcp`, Deno and Node), to 2025 clients (through the
 * SDK) and 2026-07-28 clients (stateless, answered directly), with the skills extension
 * (SEP-2640: `skills/list` and `skills/get` entries with digests and sizes, folder skills'
 * supporting files as `skill://<name>/<path>`). Each skill is also the resource
 * `skill://<name>` (`text/markdown`, the parsed skill rendered with `renderSkill`), listed through
 * the template `skill://{name}`; the tools `search_skills` ({ query, limit? }) and `get_skill`
 * ({ name }) find and read them. A folder is re-read when a skill file's mtime or size changes, so
 * edits are served without a restart, and sessions hear `notifications/resources/list_changed`.
 *
 * Stateless by default (a server and transport per POST); `sessions: true` keeps
 * `Mcp-Session-Id` sessions. Answers JSON when the client accepts only JSON, SSE otherwise.
 * Binds 127.0.0.1; browser origins other than loopback (or `allowedOrigins`) get 403, and when
 * bound to loopback a `Host` that is not loopback gets 403 too (DNS rebinding). With `token`,
 * requests without `Authorization: Bearer <token>` get 401.
 *
 * @example Serve a folder to browser pages on one origin, with a token
 * ```ts
 * import { serveSkills } from "@skillmux/core/server";
 * const server = await serveSkills({
 *   folder: "./my-skills",
 *   port: 3737,
 *   token: "s3cret",
 *   allowedOrigins: ["http://localhost:5173"],
 *   log: console.error,
 * });
 * console.log(server.url); // "http://127.0.0.1:3737/mcp"
 * await server.close();
 * ```
 *
 * With `transport: "stdio"` the same server speaks newline-delimited JSON-RPC on this process's
 * stdin/stdout (the way MCP hosts such as Claude Code, Cursor and VS Code run a `command`):
 * nothing else may write to stdout, so log to stderr; `closed` settles when stdin ends.
 *
 * @example Serve the built-in skills on stdio until the host closes stdin
 * ```ts
 * import { serveSkills } from "@skillmux/core/server";
 * const server = await serveSkills({ transport: "stdio", log: console.error });
 * await server.closed; // the host closed stdin
 * ```
 */
export async function serveSkills(options: ServeSkillsOptions = {}): Promise<SkillsServer> {
  // Lazy, so that a missing SDK is a clear error here rather than a failed import of this module.
  const serve = await importPeer(() => import("./serve.ts"), SDK);
  return await serve.serveSkills(options);
}

/**
 * One MCP server in front of the registered servers, for desktop and IDE hosts (Claude Desktop,
 * Claude Code, Cursor, VS Code) that load every tool of every configured server: the skills as
 * `serveSkills` serves them, plus the **approved** tools of the registry's servers under their
 * catalog ids (`everything__echo`) with their annotations and output schemas. Held tools (new or
 * changed since approved) are never listed. Calls are proxied with the host's progress and
 * cancellation. MCP tasks pass through to a host that declares the `tasks` capability (the
 * gateway then declares it too, lists the tools' `execution.taskSupport`, relays task-augmented
 * calls and `tasks/*` to the server holding each task under ids of its own); for other hosts,
 * tools that require tasks run as tasks upstream under the plain call. Sessions hear
 * `notifications/tools/list_changed` when the approvals or the servers change (changes through
 * `registry` at once; changes by another process within `pollMs`, default 2 s), and
 * `notifications/resources/list_changed` when the skills of the `watch` folders change. With
 * `discover`, only the meta-tools `find_tools` (whose description says how many tools of which
 * servers lie behind it) and `call_tool` are listed, plus the `pinned` tools.
 *
 * A failing upstream is contained: listing answers from the catalog without connecting, each
 * call has its server's timeouts, a broken connection is replaced on the next call, and a failure
 * is an error result naming the server (`skillmux mcp login <name>` when it needs sign-in).
 * Over HTTP: the Origin, Host and token rules of `serveSkills`, with sessions; with `users`,
 * each bearer token maps to one user's view of a multi-user registry.
 *
 * @example One host entry for every registered server's approved tools
 * ```ts
 * import { createServerRegistry } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * import { serveGateway } from "@skillmux/core/server";
 * const storage = createFsStorage({ root: "./config" });
 * const gateway = await serveGateway({
 *   registry: createServerRegistry({ storage }),
 *   approvals: { storage },
 *   log: console.error,
 * });
 * console.log(gateway.url); // e.g. "http://127.0.0.1:41234/mcp"
 * await gateway.close();
 * ```
 *
 * @example Two meta-tools and two pinned tools, skills folders watched
 * ```ts
 * import { createServerRegistry } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * import { serveGateway } from "@skillmux/core/server";
 * const storage = createFsStorage({ root: "./config" });
 * const gateway = await serveGateway({
 *   registry: createServerRegistry({ storage }),
 *   approvals: { storage },
 *   discover: true,
 *   pinned: ["docs__search", "memory__read_*"],
 *   watch: ["./my-skills"],
 * });
 * const { held, unknown } = await gateway.pins();
 * if (held.length + unknown.length > 0) console.error({ held, unknown });
 * await gateway.close();
 * ```
 */
export async function serveGateway(options: ServeGatewayOptions = {}): Promise<GatewayServer> {
  const gateway = await importPeer(() => import("./gateway.ts"), SDK);
  return await gateway.serveGateway(options);
}
