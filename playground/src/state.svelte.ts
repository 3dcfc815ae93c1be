// The playground's state: one IndexedDB store (server registry, user skills, settings), a
// resolver over user → MCP → built-in skills, and an activity log of every JSON-RPC exchange.
import { untrack } from "svelte";
import {
  type Catalog,
  connect,
  createBuiltinSource,
  createCatalog,
  createMcpSkillSource,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type McpClient,
  type McpSkillSource,
  type RegisteredServer,
  type Resolver,
} from "@skillmux/core";
import { parseSkill } from "@skillmux/core/skill";
import { createIndexedDbStorage } from "@skillmux/core/indexed-db";
import { hasTokens, oauthStore } from "./oauth.ts";
import { viaRelay } from "./relay.ts";
import { capabilities, handlers, rootsFrom } from "./asks.svelte.ts";
import { readEvents } from "./sse.ts";
import { builtinListingSource } from "./builtins.ts";

export const store = createIndexedDbStorage({ dbName: "skillmux-playground" });
export const USER_PREFIX = "skills/";
const SETTINGS_KEY = "playground/settings.json";

export interface ActivityRow {
  id: number;
  at: string;
  server: string;
  method: string;
  status: string;
  ms: number;
  size: number;
  request: string;
  response: string;
  /** Event-stream answers: how many events arrived. */
  events?: number;
}

export interface Settings {
  llmFormat: "none" | "openai" | "anthropic";
  llmBaseUrl: string;
  llmModel: string;
  llmApiKey: string;
  /** How long the model may take before keyword ranking selects instead. */
  llmTimeoutSec: number;
  /** How long a tool call may take, in seconds (progress does not extend it here). */
  toolTimeoutSec: number;
  /** The roots servers are told about, one URI a line. */
  roots: string;
  seeded: boolean;
}

export const app = $state({
  activity: [] as ActivityRow[],
  settings: {
    llmFormat: "none",
    llmBaseUrl: "",
    llmModel: "",
    llmApiKey: "",
    llmTimeoutSec: 30,
    toolTimeoutSec: 300,
    roots: "",
    seeded: false,
  } as Settings,
  /** Bumped whenever servers or user skills change, so views reload. */
  version: 0,
  /** The server the person added last in this page (the Resources and Prompts pickers' default). */
  lastAdded: "",
  /** Bumped when an approval is recorded, so views showing the catalog render it again. */
  approvals: 0,
  /** `notifications/resources/updated` from the Tools/Resources/Prompts sessions, newest first. */
  updates: [] as ResourceUpdate[],
});

/** A server said a subscribed resource changed. */
export interface ResourceUpdate {
  server: string;
  uri: string;
  at: string;
}

let nextId = 1;
rootsFrom(() => app.settings.roots);

/** `text` with the API key of the settings replaced, wherever a server echoed it. */
function scrub(text: string): string {
  const key = app.settings.llmApiKey;
  return key ? text.split(key).join("[redacted]") : text;
}

/** OAuth answers (token refresh, registration) in the log: their secrets are not shown. */
const TOKEN_FIELDS =
  /("(?:access_token|refresh_token|id_token|client_secret|registration_access_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/**
 * `fetch` that records each JSON-RPC request, and each LLM selection call, with its answer in the
 * activity log. Headers (where keys travel) are not recorded, the API key is scrubbed from bodies
 * (a server may echo it) and OAuth token fields are redacted, so no secret reaches the page.
 */
export const loggingFetch: typeof fetch = async (input, init) => {
  const started = performance.now();
  const url = input instanceof Request ? input.url : String(input);
  // ky (the LLM adapters' HTTP client) hands over a Request; the MCP client a URL and init.
  const body = typeof init?.body === "string"
    ? init.body
    : input instanceof Request && input.body
    ? await input.clone().text()
    : "";
  let method = init?.method ?? (input instanceof Request ? input.method : "GET");
  try {
    const parsed = JSON.parse(body);
    method = parsed.method ??
      (parsed.result !== undefined ? "(response)" : parsed.messages ? `LLM selection (${parsed.model})` : method);
  } catch { /* not JSON */ }
  const row = record({
    id: nextId++,
    at: new Date().toLocaleTimeString(),
    server: new URL(url).host,
    method,
    status: "…",
    ms: 0,
    size: 0,
    request: scrub(body),
    response: "",
  });
  try {
    // A session's DELETE may be sent as the page closes (pagehide): keepalive lets it outlive it.
    const response = await fetch(input, method === "DELETE" ? { ...init, keepalive: true } : init);
    row.status = String(response.status);
    row.ms = Math.round(performance.now() - started);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("json")) {
      const text = await response.clone().text();
      row.response = clean(text);
      row.size = text.length;
    } else if (type.includes("event-stream") && response.body) {
      // Each event as it comes (progress, server requests, the answer), in the same row.
      row.status += " · stream";
      const events: string[] = [];
      readEvents(response.clone().body!, (data) => {
        row.size += data.length;
        events.push(clean(pretty(data)));
        row.response = events.join("\n").slice(-MAX_TEXT);
        row.events = events.length;
        row.ms = Math.round(performance.now() - started);
      }).catch(() => {});
    }
    return response;
  } catch (error) {
    row.status = "failed";
    row.response = scrub(String(error));
    row.ms = Math.round(performance.now() - started);
    throw error;
  }
};

/** The most text kept per request or answer. */
const MAX_TEXT = 20_000;
/** The most rows kept per server and method, and in all: one busy view cannot push others out. */
const PER_KIND = 60;
const MAX_ROWS = 600;

function clean(text: string): string {
  return scrub(text.replace(TOKEN_FIELDS, '$1"[redacted]"')).slice(0, MAX_TEXT);
}

function pretty(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data));
  } catch {
    return data;
  }
}

/** Add `row` to the log, newest first, and return the live (reactive) row to update. */
function record(row: ActivityRow): ActivityRow {
  let same = 0;
  const kept = [row, ...app.activity].filter((r, i) =>
    i === 0 || !(r.server === row.server && r.method === row.method && ++same >= PER_KIND)
  );
  app.activity = kept.slice(0, MAX_ROWS);
  return app.activity[0];
}

// `auth`: servers behind OAuth use the tokens the Servers panel's "Sign in" stored; without
// them (no `onAuthorize` here: a sign-in starts only from a click) they say "sign-in needed".
// Sampling, elicitation and roots are declared and answered by the person (asks.svelte.ts). Only
// the Tools view's sessions (clientFor) keep a notification stream open, where servers also send
// requests (server-everything asks for roots there); discovery and skill reads do not.
const connectOptions = {
  timeoutMs: 8_000,
  handlers,
  capabilities,
  listen: false,
  http: { fetch: viaRelay(loggingFetch), retries: 0 },
  auth: { store: oauthStore },
};
export const registry = createServerRegistry({ storage: store, connect: connectOptions });

/**
 * The options to connect to `server`: OAuth (`auth`) only for a server with stored tokens or
 * that asked for a sign-in. Every request through `auth` first reads the token store
 * (IndexedDB); without it a session's DELETE leaves at once, even from `pagehide`.
 */
async function optionsFor(server: RegisteredServer) {
  const oauth = server.status?.kind === "OAuthError" || (await hasTokens(server));
  const { auth: _auth, ...plain } = connectOptions;
  return oauth ? connectOptions : plain;
}

/** One skill source per enabled server, in registration order, as `createMcpSkillSources` makes. */
async function skillSources(): Promise<McpSkillSource[]> {
  const servers = (await registry.list()).filter((s) => s.enabled !== false && s.url !== undefined);
  return await Promise.all(servers.map(async (server) => {
    const hint = (await registry.discovery(server.name))?.hint;
    return createMcpSkillSource(server, {
      connect: { ...(await optionsFor(server)), hint },
      onListChanged: () => void registry.invalidate(server.name).catch(() => {}),
    });
  }));
}

export async function loadSettings(): Promise<void> {
  const text = await store.get(SETTINGS_KEY);
  if (text) Object.assign(app.settings, JSON.parse(text));
}

export async function saveSettings(): Promise<void> {
  await store.set(SETTINGS_KEY, JSON.stringify(app.settings));
}

/** What the views share for one `app.version`: MCP skill sources, the resolver, the catalog. */
interface Shared {
  version: number;
  sources: Promise<McpSkillSource[]>;
  resolver: Promise<Resolver>;
  catalog?: Promise<Catalog>;
}
let shared: Shared | undefined;

/** The shared state of the current version, built on first use (never tracked by an effect). */
function current(): Shared {
  const version = untrack(() => app.version);
  if (shared?.version === version) return shared;
  release();
  const sources = skillSources();
  // The views list the built-ins from the build's small index; the catalog ranks them with the
  // library's summaries (keywords and all), loaded when a catalog is first wanted.
  const resolver = sources.then((mcp) => {
    const user = createStorageSource({ label: "user", storage: store, prefix: USER_PREFIX });
    return createResolver({ sources: [user, mcp, builtinListingSource()], timeoutMs: 8_000 });
  });
  shared = { version, sources, resolver };
  return shared;
}

/** Close the shared MCP sessions (DELETE) and stop the catalog; the next use builds afresh. */
function release(): void {
  const old = shared;
  shared = undefined;
  if (!old) return;
  old.sources.then((all) => Promise.all(all.map((s) => s.dispose()))).catch(() => {});
  old.catalog?.then((c) => c.dispose()).catch(() => {});
}

/**
 * The resolver over the current sources: user (IndexedDB) → enabled MCP servers → built-in. One
 * per `app.version`, shared by the views, so opening a view does not open new sessions.
 */
export function makeResolver(): Promise<Resolver> {
  return current().resolver;
}

/** Where approvals are kept: the library's defaults (remote tools and skills wait for a person). */
export const approvalOptions = { storage: store, key: "playground/approvals.json" };

/** A skill document parsed only to load the YAML parser's chunks early. */
const WARM_UP = "---\nname: warm-up\ndescription: Loads the parser. Use when never.\n---\n";

/**
 * The catalog over the shared MCP sources (with the library's built-in source, so it ranks with
 * the library's summaries) and the registry, one per `app.version`. It does not follow the
 * registry by itself: `changed()` starts a new one.
 */
export function sharedCatalog(): Promise<Catalog> {
  const state = current();
  state.catalog ??= state.sources.then((mcp) => {
    const user = createStorageSource({ label: "user", storage: store, prefix: USER_PREFIX });
    const builtin = createBuiltinSource();
    // The catalog's views read bodies (a held entry's built-in fallback, the assembled prompt):
    // fetch the built-in texts and the YAML parser now, beside the summaries, not one after another.
    void builtin.get("", { signal: new AbortController().signal }).catch(() => {});
    void parseSkill(WARM_UP).catch(() => {});
    const resolver = createResolver({ sources: [user, mcp, builtin], timeoutMs: 8_000 });
    return createCatalog({ resolver, registry, approvals: approvalOptions, follow: false });
  });
  state.catalog.catch(() => {
    if (shared === state) state.catalog = undefined;
  });
  return state.catalog;
}

const clients = new Map<string, Promise<McpClient>>();

/** A connection to a registered server, opened once and reused. */
export async function clientFor(name: string): Promise<McpClient> {
  let client = clients.get(name);
  if (!client) {
    const server = await registry.get(name);
    if (!server) throw new Error(`No server named "${name}"`);
    const onNotification = (message: { method: string; params?: Record<string, unknown> }) => {
      if (message.method !== "notifications/resources/updated") return;
      const update = { server: name, uri: String(message.params?.uri), at: new Date().toLocaleTimeString() };
      app.updates = [update, ...app.updates].slice(0, 50);
    };
    client = optionsFor(server).then((options) => connect(server, { ...options, listen: true, onNotification }));
    clients.set(name, client);
    client.catch(() => clients.delete(name));
  }
  return await client;
}

/** Close the session with `name` (HTTP DELETE), if one is open. */
export function dropClient(name: string): void {
  const client = clients.get(name);
  clients.delete(name);
  client?.then((c) => c.close()).catch(() => {});
}

/** Close the Tools view's sessions: the next call opens new ones (e.g. with the new roots). */
export function dropClients(): void {
  for (const name of [...clients.keys()]) dropClient(name);
}

/** Close every session the page holds: when the page hides or closes. */
export function closeAll(): void {
  for (const name of [...clients.keys()]) dropClient(name);
  release();
}

/**
 * Servers or user skills changed: close the shared sessions, and let the views reload. `added`:
 * the server the person just added, which the server pickers then show.
 */
export function changed(added?: string): void {
  if (added) app.lastAdded = added;
  release();
  app.version++;
}

/** Approvals changed: views showing the catalog render it again (no rebuild, no new session). */
export function approvalsChanged(): void {
  app.approvals++;
}
