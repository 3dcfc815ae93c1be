/**
 * Private: the relay's stdio part (scripts/_relay.ts, on only with `RELAY_STDIO=1`). The page
 * registers a command the person added (`POST /stdio` `{"command", "args", "env"}`, with the
 * token and from the playground's Origin) and gets a route `/s/<id>`; that route speaks
 * Streamable HTTP (SDK server transport) and each `initialize` on it starts one child process,
 * whose stdio the session is bridged to. The child ends with its session (DELETE), with its
 * registration (`DELETE /stdio/<id>`, when the person removes the server), with the relay, and
 * when its session has been idle `idleMs` (no request open, none for that long: the page that
 * held it crashed or closed without its DELETE; a live page's next request opens a new session).
 *
 * Registrations are per server: the page names the server (`"name"`, its placeholder URL), so two
 * servers with the same command get two routes, and removing one ends only its own processes;
 * registering the same server again (a reload) gives the same route.
 *
 * A started process waits for each route (a spare, started when the page registers the server,
 * which it does when it loads and when the person adds one: before its sessions ask), so that a
 * session's `initialize` does not wait for a program's start-up (often seconds for `npx`/`node`):
 * it is taken by the next session and another is started at once. A process is handed to a
 * session only once it is ready (it answered the relay's `ping`, scripts/_relay_child.ts), within
 * its start-up allowance (`startupMs`, default 60 s: `npx -y` fetching a package the first time);
 * past it, or when the program exits first, the session's `initialize` is answered 502 with the
 * program's stderr. `POST /stdio` answers once the route's spare is ready (`"ready": true`) or
 * could not start (`"ready": false`, `"error"`). Spares end with the registration and the relay
 * too, and when the route had no session for `idleMs` (the next session then starts its own).
 *
 * stdio carries no request/stream link, so a message the child sends that is not an answer goes
 * on the stream of the request its `progressToken` names, else of the newest request still open,
 * else on the session's GET stream (sampling and elicitation asked during a call reach the page).
 *
 * @module
 */

import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { checkLaunchCommand, describeLaunch } from "../lib/mcp/policy/launch.ts";
import { type ChildMessage, RelayChild } from "./_relay_child.ts";

/** A stdio server as the person added it in the page. */
export interface StdioCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Which server of the page this is (its placeholder URL): one registration per server. */
  name?: string;
}

/** How long a session (and a route's spare process) may sit idle: 10 minutes. */
export const DEFAULT_IDLE_MS = 10 * 60_000;
/** How long a started program may take to be ready (answer the relay's ping): 60 s. */
export const DEFAULT_STARTUP_MS = 60_000;

type Message = ChildMessage;

/** Options of {@linkcode StdioRoutes}. */
export interface StdioRoutesOptions {
  /** How long a session or a route's spare process may sit idle (default 10 min). */
  idleMs?: number;
  /** How long a started program may take to be ready (default 60 s). */
  startupMs?: number;
  /** On close: after closing stdin, before SIGTERM (default 2 s). */
  closeMs?: number;
  /** On close: after SIGTERM, before SIGKILL (default 2 s). */
  killMs?: number;
  /** Receives a line when a program could not start (npm start prints it). */
  log?: (line: string) => void;
}

/** What `POST /stdio` reports of a route's spare process. */
export interface SpareState {
  ready: boolean;
  error?: string;
}

interface Bridge {
  route: string;
  http: StreamableHTTPServerTransport;
  child: RelayChild;
  /** Requests of the page on this session still open (a call, a GET stream). */
  open: number;
  /** When the last request on it started or ended (ms). */
  seen: number;
}

interface Registration {
  command: StdioCommand;
  /** When a request last came for this route (ms). */
  seen: number;
}

/** Validate the body of `POST /stdio`; throws with the field that is wrong. */
export function parseCommand(value: unknown): StdioCommand {
  const v = value as Partial<StdioCommand> | null;
  if (typeof v?.command !== "string" || v.command.trim() === "") {
    throw new Error(`"command" must be a non-empty string`);
  }
  const args = v.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) {
    throw new Error(`"args" must be an array of strings`);
  }
  const env = v.env ?? {};
  if (typeof env !== "object" || !Object.values(env).every((e) => typeof e === "string")) {
    throw new Error(`"env" must be an object of strings`);
  }
  if (v.name !== undefined && (typeof v.name !== "string" || v.name.length > 2_048)) {
    throw new Error(`"name" must be a string of at most 2048 characters`);
  }
  // A shell line ("npx -y x && curl …") is refused: the child starts without a shell.
  checkLaunchCommand({ name: "relay", command: v.command, args });
  return { command: v.command, args, env, ...(v.name === undefined ? {} : { name: v.name }) };
}

/** What the relay's terminal shows before it starts a registered command (secrets masked). */
export function describeCommand(command: StdioCommand): string {
  const shown = describeLaunch({
    name: "relay",
    command: command.command,
    args: command.args,
    env: command.env,
  });
  const env = shown.env.map((e) => ` ${e.name}=${e.value}`).join("");
  return `relay: the page added a stdio server${
    command.name ? ` (${command.name})` : ""
  }:${env} ${shown.commandLine}`;
}

/** The registered commands and their running sessions. */
export class StdioRoutes {
  readonly #commands = new Map<string, Registration>();
  readonly #sessions = new Map<string, Bridge>();
  readonly #spares = new Map<string, RelayChild>();
  readonly #options: Required<Omit<StdioRoutesOptions, "log">> & Pick<StdioRoutesOptions, "log">;
  readonly #sweeper: ReturnType<typeof setInterval>;
  #started = 0;

  /** See {@linkcode StdioRoutesOptions}. */
  constructor(options: StdioRoutesOptions = {}) {
    this.#options = {
      idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
      startupMs: options.startupMs ?? DEFAULT_STARTUP_MS,
      closeMs: options.closeMs ?? 2_000,
      killMs: options.killMs ?? 2_000,
      log: options.log,
    };
    const idleMs = this.#options.idleMs;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(idleMs / 4, 30_000)));
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  /** Register `command` of the server `command.name`; the same server and command, the same id. */
  register(command: StdioCommand): string {
    const id = createHash("sha256").update(JSON.stringify(command)).digest("base64url").slice(
      0,
      16,
    );
    this.#commands.set(id, { command, seen: Date.now() });
    this.#spare(id, command);
    return id;
  }

  /** Wait until route `id`'s spare process is ready or could not start (its allowance bounds it). */
  async ready(id: string): Promise<SpareState> {
    const spare = this.#spares.get(id);
    if (spare === undefined) {
      return { ready: false, error: "relay: no process waits for this route" };
    }
    return await spare.ready.then(
      () => ({ ready: true }),
      (error: Error) => ({ ready: false, error: error.message }),
    );
  }

  /** Forget route `id` and end its children; false when nothing was registered there. */
  unregister(id: string): boolean {
    for (const bridge of [...this.#sessions.values()]) {
      if (bridge.route === id) void bridge.http.close();
    }
    this.#dropSpare(id);
    return this.#commands.delete(id);
  }

  /** How many children serve sessions now (for tests). */
  get running(): number {
    return this.#sessions.size;
  }

  /** How many processes were started in all, spares included (for tests). */
  get started(): number {
    return this.#started;
  }

  /** End sessions idle past the timeout, and the spares of routes without a session that long. */
  #sweep(): void {
    const now = Date.now();
    const busy = new Set<string>();
    for (const bridge of [...this.#sessions.values()]) {
      if (bridge.open === 0 && now - bridge.seen > this.#options.idleMs) void bridge.http.close();
      else busy.add(bridge.route);
    }
    for (const [id, registration] of this.#commands) {
      if (!busy.has(id) && now - registration.seen > this.#options.idleMs) this.#dropSpare(id);
    }
  }

  /** Count `res` as open on `bridge` until it ends. */
  #track(bridge: Bridge, res: ServerResponse): void {
    bridge.open++;
    bridge.seen = Date.now();
    res.once("close", () => {
      bridge.open--;
      bridge.seen = Date.now();
    });
  }

  /** Serve one request on route `id`; false when `id` is not registered. */
  async handle(id: string, req: IncomingMessage, res: ServerResponse, body: unknown) {
    const registration = this.#commands.get(id);
    if (registration === undefined) return false;
    registration.seen = Date.now();
    const { command } = registration;
    const session = req.headers["mcp-session-id"];
    if (typeof session === "string") {
      const bridge = this.#sessions.get(session);
      if (bridge === undefined || bridge.route !== id) {
        rpcError(res, 404, -32001, "Session not found (its process ended)");
        return true;
      }
      this.#track(bridge, res);
      await bridge.http.handleRequest(req, res, body);
      return true;
    }
    if (req.method !== "POST" || (body as Message | undefined)?.method !== "initialize") {
      rpcError(res, 400, -32000, "Bad Request: initialize first (no Mcp-Session-Id)");
      return true;
    }
    const child = this.#take(id, command);
    try {
      await child.ready;
    } catch (error) {
      // It exited, or was not ready within its start-up allowance: say so, with its stderr.
      rpcError(res, 502, -32603, (error as Error).message, (body as Message).id);
      return true;
    }
    if (this.#commands.get(id) !== registration) {
      // The server was removed while its process got ready.
      void child.stop();
      rpcError(res, 404, -32001, "Session not found (the server was removed)");
      return true;
    }
    const bridge = await this.#open(id, child);
    this.#track(bridge, res);
    await bridge.http.handleRequest(req, res, body);
    return true;
  }

  /** End every child. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const stopping = [...this.#spares.values()].map((child) => child.stop());
    this.#spares.clear();
    await Promise.all([
      ...stopping,
      ...[...this.#sessions.values()].map(async (b) => {
        await b.http.close();
        await b.child.stop();
      }),
    ]);
    this.#commands.clear();
  }

  /** Start a process for `route` unless a live one waits already (or the route was removed). */
  #spare(route: string, command: StdioCommand): RelayChild | undefined {
    const waiting = this.#spares.get(route);
    if (waiting !== undefined && !waiting.failed && !waiting.exited) return waiting;
    if (!this.#commands.has(route)) return undefined;
    const child = new RelayChild({
      command: command.command,
      args: command.args,
      // The SDK's short list (PATH, HOME, …), not the relay's whole environment: its API keys
      // are no business of a command a page added.
      env: { ...getDefaultEnvironment(), ...command.env },
      startupMs: this.#options.startupMs,
      closeMs: this.#options.closeMs,
      killMs: this.#options.killMs,
    });
    this.#started++;
    child.ready.catch((error: Error) => {
      this.#options.log?.(error.message);
      if (this.#spares.get(route) === child) this.#spares.delete(route);
    });
    child.onclose = () => {
      if (this.#spares.get(route) === child) this.#spares.delete(route);
    };
    this.#spares.set(route, child);
    return child;
  }

  #dropSpare(route: string): void {
    void this.#spares.get(route)?.stop();
    this.#spares.delete(route);
  }

  /** The waiting process of `route`, and another started at once for the next session. */
  #take(route: string, command: StdioCommand): RelayChild {
    const child = this.#spare(route, command)!; // registered: handle() looked it up
    this.#spares.delete(route);
    this.#spare(route, command);
    return child;
  }

  async #open(route: string, child: RelayChild): Promise<Bridge> {
    const http = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void this.#sessions.set(sessionId, bridge),
    });
    const bridge: Bridge = { route, http, child, open: 0, seen: Date.now() };
    /** Requests from the page still open, oldest first, and the progress tokens they carry. */
    const open: Array<string | number> = [];
    const tokens = new Map<unknown, string | number>();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (http.sessionId !== undefined) this.#sessions.delete(http.sessionId);
      void child.stop();
      void http.close();
    };
    http.onclose = end;
    child.onclose = end;
    if (child.exited) queueMicrotask(end);
    http.onmessage = (message) => {
      const m = message as Message;
      if (m.method !== undefined && m.id !== undefined) {
        open.push(m.id);
        const token = (m.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
          ?.progressToken;
        if (token !== undefined) tokens.set(token, m.id);
      }
      child.send(message).catch(end);
    };
    child.onmessage = (message) => {
      const m = message as Message;
      if (m.method === undefined && m.id !== undefined) {
        const at = open.indexOf(m.id);
        if (at >= 0) open.splice(at, 1);
        for (const [token, id] of tokens) if (id === m.id) tokens.delete(token);
        return void http.send(message as never).catch(() => {});
      }
      const token = (m.params as { progressToken?: unknown } | undefined)?.progressToken;
      const related = tokens.get(token) ?? open.at(-1);
      http.send(message as never, related === undefined ? undefined : { relatedRequestId: related })
        .catch(() => http.send(message as never).catch(() => {}));
    };
    await http.start();
    return bridge;
  }
}

/** Answer `res` with a JSON-RPC error. */
function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error: { code, message } }));
}
