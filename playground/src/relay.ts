// Servers the person routes through `npm start`'s loopback relay (servers that send no CORS
// headers). The registry keeps each server's real URL; the set of relayed URLs lives in
// localStorage, and `viaRelay` sends their requests to the relay's route for them, registered
// with the per-run token from /playground.json (the relay forwards nowhere else).
// A stdio server the person adds is kept in the registry under a placeholder URL
// (https://stdio.relay.invalid/<name>, never fetched) and its command in localStorage; its
// requests go to the relay's route for that command, which starts it (`RELAY_STDIO=1 npm start`).
// The page registers each stdio server when it loads and when the person adds one, before its
// sessions ask: the relay answers once a process of it is ready (or says why it is not), and
// keeps one ready for the next session.
const KEY = "skillmux-playground/relayed";
const STDIO_KEY = "skillmux-playground/stdio";
const STDIO_HOST = "stdio.relay.invalid";
const TOKEN_HEADER = "X-Skillmux-Relay-Token";

interface RelayInfo {
  url: string;
  token: string;
  /** Whether it starts stdio servers (`RELAY_STDIO=1 npm start`). */
  stdio?: boolean;
  /** How long the relay lets a stdio server take to start (ms). */
  startupMs?: number;
}

/** A route of the relay, and (stdio) whether its process was ready when registered. */
interface Route {
  url: string;
  ready?: boolean;
  error?: string;
}

/**
 * The discovery timeout (lists, reads, `initialize`) of a stdio server through the relay: a
 * session that finds no process ready (two opened at once) waits for one to start, which the
 * relay bounds by its start-up allowance; a local process needs no tighter guess than this.
 */
export const STDIO_TIMEOUT_MS = 30_000;

/** A stdio server as the person added it. */
export interface StdioCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

let info: Promise<RelayInfo | undefined> | undefined;
const routes = new Map<string, Promise<Route>>();

/** The relay `npm start` runs, or undefined when the page is hosted elsewhere. */
export function relayInfo(): Promise<RelayInfo | undefined> {
  info ??= fetch("./playground.json")
    .then((r) => (r.ok ? r.json() : undefined))
    .then((config) => config?.relay as RelayInfo | undefined)
    .catch(() => undefined);
  return info;
}

function commands(): Record<string, StdioCommand> {
  try {
    return JSON.parse(localStorage.getItem(STDIO_KEY) ?? "{}");
  } catch {
    return {};
  }
}

/** The command of a stdio server added through the relay, or undefined. */
export function stdioCommand(url: string | undefined): StdioCommand | undefined {
  return url === undefined ? undefined : commands()[url];
}

/** Keep `command` for a stdio server named `name`; returns the placeholder URL to register. */
export function addStdio(name: string, command: StdioCommand): string {
  const url = `https://${STDIO_HOST}/${encodeURIComponent(name)}`;
  localStorage.setItem(STDIO_KEY, JSON.stringify({ ...commands(), [url]: command }));
  routes.delete(url);
  return url;
}

/** The person removed a stdio server: forget its command and let the relay end its processes. */
export async function removeStdio(url: string | undefined): Promise<void> {
  if (stdioCommand(url) === undefined) return;
  const { [url!]: _, ...rest } = commands();
  localStorage.setItem(STDIO_KEY, JSON.stringify(rest));
  const route = routes.get(url!);
  routes.delete(url!);
  const relay = await relayInfo();
  const at = await route?.catch(() => undefined);
  if (!relay || !at) return;
  await fetch(`${relay.url}/stdio/${at.url.split("/s/")[1]}`, {
    method: "DELETE",
    headers: { [TOKEN_HEADER]: relay.token },
    keepalive: true,
  }).catch(() => {});
}

/** `npx -y "a b" c` → ["npx", "-y", "a b", "c"]. */
export function splitCommandLine(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function relayed(): string[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]");
  } catch {
    return [];
  }
}

/** Whether requests to `url` go through the relay. */
export function isRelayed(url: string | undefined): boolean {
  return url !== undefined && relayed().includes(url);
}

/** Route `url` through the relay, or not. */
export function setRelayed(url: string | undefined, on: boolean): void {
  if (url === undefined) return;
  const rest = relayed().filter((u) => u !== url);
  localStorage.setItem(KEY, JSON.stringify(on ? [...rest, url] : rest));
  routes.delete(url);
}

async function routeFor(relay: RelayInfo, url: string): Promise<Route> {
  let route = routes.get(url);
  if (!route) {
    const command = stdioCommand(url);
    route = fetch(`${relay.url}/${command ? "stdio" : "targets"}`, {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: relay.token },
      // A stdio server is named by its placeholder URL: one registration (and process) per server.
      body: JSON.stringify(command ? { ...command, name: url } : { url }),
      // The relay answers a stdio registration once its process is ready, within its start-up
      // allowance: wait that long, and a little more, never for ever.
      signal: AbortSignal.timeout((relay.startupMs ?? 60_000) + 10_000),
    }).then(async (r) => {
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(`The npm start relay refused ${url}: ${body.error ?? r.status}`);
      return body as Route;
    });
    routes.set(url, route);
    route.catch(() => routes.delete(url));
  }
  return await route;
}

/** `inner`, with requests to relayed servers sent through the relay. */
export function viaRelay(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const command = stdioCommand(url);
    if (!command && !isRelayed(url)) return inner(input, init);
    const relay = await relayInfo();
    if (command && !relay?.stdio) {
      throw new Error(
        `"${command.command}" is a stdio server: the npm start relay starts it, ` +
          (relay ? "but this npm start does not start stdio servers: restart it with RELAY_STDIO=1" : "but this page was not served by npm start"),
      );
    }
    if (!relay) {
      throw new Error(`${url} is set to go through the npm start relay, but this page was not served by npm start`);
    }
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set(TOKEN_HEADER, relay.token);
    return inner((await routeFor(relay, url)).url, { ...init, headers });
  };
}

/**
 * Register the stdio server at `url` with the relay, which starts a process of it: resolves once
 * that process is ready, or with why it is not (the program's exit and stderr, or its start-up
 * allowance passed). Sessions asked after this find a process waiting.
 */
export async function prepareStdio(url: string): Promise<{ ready: boolean; error?: string }> {
  const relay = await relayInfo();
  if (!relay?.stdio || stdioCommand(url) === undefined) return { ready: false, error: "not a stdio server of this relay" };
  try {
    const route = await routeFor(relay, url);
    return { ready: route.ready !== false, ...(route.error ? { error: route.error } : {}) };
  } catch (error) {
    return { ready: false, error: (error as Error).message };
  }
}

/** At page load: register every stdio server kept here, so their processes start at once. */
export function warmStdio(): void {
  for (const url of Object.keys(commands())) void prepareStdio(url);
}
