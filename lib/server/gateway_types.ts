/**
 * Contract of the gateway (`serveGateway` in `@skillmux/core/server`, Deno and Node).
 *
 * @module
 */

import type { ApprovalOptions, FeedbackRequest } from "../catalog/model/types.ts";
import type { ConnectOptions } from "../mcp/client/connect_options.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { MultiUserRegistry } from "../mcp/registry/users.ts";
import type { Resolver } from "../resolve/types.ts";
import type { UserResolvers } from "../resolve/users.ts";
import type { SkillsServer } from "./types.ts";

/**
 * Many users behind one HTTP gateway: each bearer token maps to one user, who sees their own,
 * shared and global servers (the registry's `forUser` view) and never another user's.
 */
export interface GatewayUsers {
  /** The multi-user registry (e.g. over unstorage and Redis). */
  registry: MultiUserRegistry;
  /** Bearer token → user id. A request with any other token gets 401. */
  tokens: Readonly<Record<string, string>>;
  /** Each user's skills (default: the built-in skills for everyone). */
  resolvers?: UserResolvers;
  /** Where a user's approvals are kept (default: in memory, default policies). */
  approvals?: (userId: string) => ApprovalOptions;
}

/** Options of `serveGateway`. */
export interface ServeGatewayOptions {
  /** The registered servers whose approved tools are served (default: none). */
  registry?: ServerRegistry;
  /** The skills served (default: the built-in skills); e.g. `createResolver({ sources: await createDefaultSources() })`. */
  resolver?: Resolver;
  /** Where approvals are kept and their policies (default: in memory, default policies). */
  approvals?: ApprovalOptions;
  /** Many users (HTTP only): replaces `registry`, `resolver`, `approvals` and `token`. */
  users?: GatewayUsers;
  /**
   * List only the meta-tools `find_tools` and `call_tool` (and the skill tools) instead of every
   * approved tool: progressive disclosure for hosts that cannot filter tools.
   */
  discover?: boolean;
  /**
   * Tools listed directly whatever `discover` says: catalog ids (`everything__echo`) or globs
   * over them (`*` any run of characters, `?` one character: `memory__read_*`). A pinned tool
   * that waits for approval is not listed: it is reported (`pins()`, the log, `find_tools`'s
   * description) with the approve command; a pin that matches no tool is reported as unknown.
   */
  pinned?: readonly string[];
  /**
   * Folders whose skills the resolver serves (the user and community folders): checked every
   * `pollMs`, and when their skills change the sessions hear
   * `notifications/resources/list_changed`. Default: none (skills are still read fresh on
   * every request; only the notice needs a folder to watch).
   */
  watch?: readonly string[];
  /**
   * The command that approves held tools, which `find_tools` names when the tools that fit wait
   * for approval (default `skillmux approve`; the ids follow it).
   */
  approveCommand?: string;
  /**
   * Your own labelled requests (`createCatalog`'s `feedback`: the lines of a `skillmux eval`
   * file), used by `find_tools` to rank the tools they name; not with `users`. Explicit and
   * reversible: a gateway started without it ranks as before.
   */
  feedback?: readonly FeedbackRequest[];
  /** `"http"` (default): Streamable HTTP at `/mcp` with sessions. `"stdio"`: stdin/stdout. */
  transport?: "http" | "stdio";
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** Port (default `0`: any free port). */
  port?: number;
  /** Require `Authorization: Bearer <token>` (401 without it). */
  token?: string;
  /** Origins allowed to call from a browser (default: loopback origins); others get 403. */
  allowedOrigins?: readonly string[] | "*";
  /**
   * Options of the connections to the upstream servers (URL policy, stdio connector, auth, …).
   * With `users`, the URL policy defaults to `strict` and `env` to `{}`, as the multi-user
   * registry's do.
   */
  connect?: ConnectOptions;
  /** Per-server timeout when discovering tools, in ms (default 10000). */
  listTimeoutMs?: number;
  /** The longest an upstream call may stay silent (progress restarts it), in ms (default 60000). */
  callTimeoutMs?: number;
  /**
   * How often the registry and approvals storage are checked for changes made elsewhere (another
   * process, `skillmux approve`), in ms (default 2000). Changes made through `registry` in this
   * process are seen at once.
   */
  pollMs?: number;
  /** One line per event, never a secret. Default: none. */
  log?: (line: string) => void;
}

/**
 * Where the pinned tools stand (see {@linkcode ServeGatewayOptions.pinned}).
 *
 * @example Warn of the pins that list nothing
 * ```ts
 * import { serveGateway } from "@skillmux/core/server";
 * const gateway = await serveGateway({ discover: true, pinned: ["everything__echo"] });
 * const { held, unknown } = await gateway.pins();
 * if (held.length) console.error(`pinned but waiting for approval: ${held.join(", ")}`);
 * if (unknown.length) console.error(`no tool matches: ${unknown.join(", ")}`);
 * await gateway.close();
 * ```
 */
export interface GatewayPins {
  /** Pinned tools listed directly (approved), by catalog id. */
  listed: string[];
  /** Pinned tools that wait for approval, not listed until approved, by catalog id. */
  held: string[];
  /** Pins that match no tool of any registered server (as given). */
  unknown: string[];
}

/** A running gateway. */
export interface GatewayServer extends SkillsServer {
  /** Check the registry, the approvals and the watched skills now and tell clients what changed. */
  refresh(): Promise<void>;
  /** Where the pinned tools stand now (with `users`: the first token's user). */
  pins(): Promise<GatewayPins>;
}
