/**
 * `serveGateway`: one MCP server in front of the registered servers (see mod.ts).
 *
 * @module
 */

import { createMemoryStorage } from "../storage/memory.ts";
import { buildGatewayServer } from "./_gateway_mcp.ts";
import { serveHttp } from "./_gateway_http.ts";
import { onStdio } from "./_stdio.ts";
import { GatewayView, type GatewayViewOptions } from "./_gateway_view.ts";
import { pinProblem } from "./_gateway_pins.ts";
import type { CallSettings } from "./_gateway_call.ts";
import type { GatewayServer, ServeGatewayOptions } from "./gateway_types.ts";

const DEFAULT_POLL_MS = 2_000;

function check(options: ServeGatewayOptions): void {
  const fail = (why: string) => {
    throw new TypeError(`Cannot serve the gateway: ${why}`);
  };
  if (
    options.transport !== undefined && options.transport !== "http" && options.transport !== "stdio"
  ) {
    fail(`transport must be "http" or "stdio", got ${JSON.stringify(options.transport)}`);
  }
  if (options.token === "") fail("token must not be empty");
  if (options.users !== undefined) {
    if (options.transport === "stdio") {
      fail("users (many users) needs HTTP: a stdio host is one user");
    }
    if (options.token !== undefined) fail("give either token or users.tokens, not both");
    if (options.registry !== undefined || options.resolver !== undefined) {
      fail("with users, servers and skills come from users.registry and users.resolvers");
    }
    if (Object.keys(options.users.tokens).length === 0) fail("users.tokens is empty");
    if (options.feedback !== undefined) fail("feedback is one user's: not with users");
  }
  if (options.pinned !== undefined) {
    if (!Array.isArray(options.pinned)) fail("pinned must be an array of tool ids or globs");
    for (const pin of options.pinned) {
      const problem = pinProblem(pin);
      if (problem !== undefined) fail(`pinned: ${problem}`);
    }
  }
  if (options.watch !== undefined) {
    if (
      !Array.isArray(options.watch) || options.watch.some((w) => typeof w !== "string" || w === "")
    ) {
      fail("watch must be an array of folder paths");
    }
  }
  const poll = options.pollMs;
  if (poll !== undefined && (!Number.isFinite(poll) || poll < 50)) {
    fail("pollMs must be at least 50");
  }
}

/** The implementation of `serveGateway` (mod.ts loads this module lazily). */
export async function serveGateway(options: ServeGatewayOptions = {}): Promise<GatewayServer> {
  check(options);
  const settings: CallSettings = {
    callTimeoutMs: options.callTimeoutMs,
    log: options.log,
    approveCommand: options.approveCommand,
  };
  const users = options.users;
  // Many users: the service defaults of the multi-user registry (strict URL policy, no `${VAR}`
  // from this process's environment), so that no user's server reaches an internal host.
  const connect = users === undefined ? options.connect : {
    ...options.connect,
    env: options.connect?.env ?? {},
    urlPolicy: options.connect?.urlPolicy ?? { mode: "strict" as const },
  };
  const base = {
    connect,
    listTimeoutMs: options.listTimeoutMs,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    pinned: options.pinned,
    watch: options.watch,
    log: options.log,
  };
  const views = new Map<string, Promise<GatewayView>>();
  const viewOf = (user: string): Promise<GatewayView> => {
    let view = views.get(user);
    if (view === undefined) {
      const view_options: GatewayViewOptions = users === undefined
        ? {
          ...base,
          registry: options.registry,
          resolver: options.resolver,
          approvals: options.approvals,
          feedback: options.feedback,
        }
        : {
          ...base,
          registry: users.registry.forUser(user),
          approvals: users.approvals?.(user) ?? { storage: createMemoryStorage() },
          resolver: users.resolvers === undefined ? undefined : lazyResolver(users.resolvers, user),
        };
      view = GatewayView.open(view_options);
      views.set(user, view);
      view.catch(() => views.delete(user));
    }
    return view;
  };
  const shutdown = async () => {
    const all = [...views.values()];
    views.clear();
    await Promise.all(all.map(async (v) => (await v.catch(() => undefined))?.close()));
  };
  const refresh = async () => {
    await Promise.all([...views.values()].map(async (v) => (await v).check()));
  };
  const firstUser = users === undefined ? "" : Object.values(users.tokens)[0];
  const pins = async () => structuredClone((await viewOf(firstUser)).pins);
  if (options.transport !== "stdio") {
    // The single user's view is built up front, so that the first request does not wait for it.
    if (users === undefined) await viewOf("");
    return { ...await serveHttp(options, viewOf, settings, shutdown, refresh), pins };
  }
  const view = await viewOf("");
  const session = buildGatewayServer(view, options.discover === true, settings, true);
  const served = await onStdio(session.mcp, options.log, async () => {
    session.dispose();
    await session.mcp.close().catch(() => {});
    await shutdown();
  });
  options.log?.(`gateway on stdio: ${view.tools.length} approved tools`);
  return { url: "stdio:", skills: () => view.skills.served(), ...served, refresh, pins };
}

/** A resolver that asks the user's chain at each call (chains are cached and rebuilt by `resolvers`). */
function lazyResolver(
  resolvers: NonNullable<ServeGatewayOptions["users"]>["resolvers"] & object,
  user: string,
): GatewayViewOptions["resolver"] & object {
  return {
    resolve: async (name, opts) => await (await resolvers.forUser(user)).resolve(name, opts),
    list: async (opts) => await (await resolvers.forUser(user)).list(opts),
  } as GatewayViewOptions["resolver"] & object;
}
