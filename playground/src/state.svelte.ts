// The playground's state: one IndexedDB store (server registry, user skills, settings), a
// resolver over user → MCP → built-in skills, and an activity log of every JSON-RPC exchange.
import {
  connect,
  createBuiltinSource,
  createMcpSkillSources,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type McpClient,
  type Resolver,
} from "@skillmux/core";
import { createIndexedDbStorage } from "@skillmux/core/indexed-db";
import { oauthStore } from "./oauth.ts";
import { viaRelay } from "./relay.ts";

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
}

export interface Settings {
  llmFormat: "none" | "openai" | "anthropic";
  llmBaseUrl: string;
  llmModel: string;
  llmApiKey: string;
  /** How long the model may take before keyword ranking selects instead. */
  llmTimeoutSec: number;
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
    seeded: false,
  } as Settings,
  /** Bumped whenever servers or user skills change, so views reload. */
  version: 0,
});

let nextId = 1;

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
  const row: ActivityRow = {
    id: nextId++,
    at: new Date().toLocaleTimeString(),
    server: new URL(url).host,
    method,
    status: "…",
    ms: 0,
    size: 0,
    request: scrub(body),
    response: "",
  };
  try {
    const response = await fetch(input, init);
    row.status = String(response.status);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("json")) {
      const text = await response.clone().text();
      row.response = scrub(text.replace(TOKEN_FIELDS, '$1"[redacted]"')).slice(0, 20_000);
      row.size = text.length;
    } else row.response = type.includes("event-stream") ? "(event stream)" : "";
    return response;
  } catch (error) {
    row.status = "failed";
    row.response = scrub(String(error));
    throw error;
  } finally {
    row.ms = Math.round(performance.now() - started);
    app.activity = [row, ...app.activity].slice(0, 300);
  }
};

// `auth`: servers behind OAuth use the tokens the Servers panel's "Sign in" stored; without
// them (no `onAuthorize` here: a sign-in starts only from a click) they say "sign-in needed".
const connectOptions = {
  timeoutMs: 8_000,
  http: { fetch: viaRelay(loggingFetch), retries: 0 },
  auth: { store: oauthStore },
};
export const registry = createServerRegistry({ storage: store, connect: connectOptions });

export async function loadSettings(): Promise<void> {
  const text = await store.get(SETTINGS_KEY);
  if (text) Object.assign(app.settings, JSON.parse(text));
}

export async function saveSettings(): Promise<void> {
  await store.set(SETTINGS_KEY, JSON.stringify(app.settings));
}

/** A resolver over the current sources: user (IndexedDB) → enabled MCP servers → built-in. */
export async function makeResolver(): Promise<Resolver> {
  const user = createStorageSource({ label: "user", storage: store, prefix: USER_PREFIX });
  const mcp = await createMcpSkillSources(registry, { connect: connectOptions });
  return createResolver({ sources: [user, mcp, createBuiltinSource()], timeoutMs: 8_000 });
}

const clients = new Map<string, Promise<McpClient>>();

/** A connection to a registered server, opened once and reused. */
export async function clientFor(name: string): Promise<McpClient> {
  let client = clients.get(name);
  if (!client) {
    const server = await registry.get(name);
    if (!server) throw new Error(`No server named "${name}"`);
    client = connect(server, connectOptions);
    clients.set(name, client);
    client.catch(() => clients.delete(name));
  }
  return await client;
}

export function dropClient(name: string): void {
  const client = clients.get(name);
  clients.delete(name);
  client?.then((c) => c.close()).catch(() => {});
}

export function changed(): void {
  app.version++;
}
