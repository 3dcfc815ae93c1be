/**
 * Server lists in the shapes other tools use: the `mcpServers` JSON of desktop
 * MCP clients and the `[[mcp.servers]]` TOML of skill tools. Reading checks
 * every entry and names the one that is wrong.
 *
 * @module
 */

import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { PolicyError } from "../protocol/errors.ts";
import type { McpServerConfig, ServerOrigin } from "../protocol/types.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function stringMap(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== "string")) {
    throw new PolicyError(`${where} must be a table of strings`, { field: where });
  }
  return { ...(value as Record<string, string>) };
}

function text(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") {
    throw new PolicyError(`${where} must be a string`, { field: where });
  }
  return value;
}

/**
 * A server name derived from a URL when an entry has none: `host-port`.
 *
 * @example
 * ```ts
 * import { nameFromUrl } from "@skillmux/core/mcp";
 * console.log(nameFromUrl("http://localhost:3000/mcp")); // "localhost-3000"
 * ```
 */
export function nameFromUrl(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}${port ? `-${port}` : ""}`.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 64) ||
      "server";
  } catch {
    return "server";
  }
}

const TOML_TIMEOUTS = [
  ["timeout_ms", "timeoutMs"],
  ["call_timeout_ms", "callTimeoutMs"],
  ["max_total_ms", "maxTotalMs"],
  ["startup_timeout_ms", "startupTimeoutMs"],
  ["close_timeout_ms", "closeTimeoutMs"],
  ["kill_timeout_ms", "killTimeoutMs"],
] as const;

/** The `origin` table of an entry added from an MCP registry. */
function originOf(value: unknown, where: string): ServerOrigin | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw new PolicyError(`${where} must be a table`, { field: where });
  const registry = text(value.registry, `${where}.registry`);
  const name = text(value.name, `${where}.name`);
  const version = text(value.version, `${where}.version`);
  if (!registry || !name || !version) {
    throw new PolicyError(`${where} needs registry, name and version`, { field: where });
  }
  const origin: ServerOrigin = { registry, name, version };
  if (value.option !== undefined) {
    if (!Number.isInteger(value.option)) {
      throw new PolicyError(`${where}.option must be a whole number`, { field: `${where}.option` });
    }
    origin.option = value.option as number;
  }
  const values = stringMap(value.values, `${where}.values`);
  if (values) origin.values = values;
  return origin;
}

function entry(name: string, raw: unknown, where: string): McpServerConfig {
  if (!isObject(raw)) throw new PolicyError(`${where} must be a table`, { field: where });
  const url = text(raw.url ?? raw.serverUrl, `${where}.url`);
  const command = text(raw.command, `${where}.command`);
  if (!url === !command) {
    throw new PolicyError(`${where} needs exactly one of "url" and "command"`, { field: where });
  }
  if (
    raw.args !== undefined &&
    (!Array.isArray(raw.args) || raw.args.some((a) => typeof a !== "string"))
  ) {
    throw new PolicyError(`${where}.args must be a list of strings`, { field: `${where}.args` });
  }
  const type = text(raw.type ?? raw.transport, `${where}.type`);
  const config: McpServerConfig = { name };
  if (url) config.url = url;
  if (command) config.command = command;
  if (raw.args) config.args = [...(raw.args as string[])];
  const env = stringMap(raw.env, `${where}.env`);
  if (env) config.env = env;
  const cwd = text(raw.cwd, `${where}.cwd`);
  if (cwd) config.cwd = cwd;
  const headers = stringMap(raw.headers, `${where}.headers`);
  if (headers) config.headers = headers;
  const apiKey = text(raw.api_key ?? raw.apiKey, `${where}.api_key`);
  if (apiKey) config.apiKey = apiKey;
  if (raw.enabled === false || raw.disabled === true) config.enabled = false;
  const id = text(raw.id, `${where}.id`);
  if (id) (config as McpServerConfig & { id?: string }).id = id;
  const description = text(raw.description, `${where}.description`);
  if (description) (config as McpServerConfig & { description?: string }).description = description;
  for (const [key, field] of TOML_TIMEOUTS) {
    const ms = raw[key] ?? raw[field];
    if (ms === undefined) continue;
    if (typeof ms !== "number") {
      throw new PolicyError(`${where}.${key} must be a number of milliseconds`, {
        field: `${where}.${key}`,
      });
    }
    config[field] = ms;
  }
  const origin = originOf(raw.origin, `${where}.origin`);
  if (origin) config.origin = origin;
  if (type === "sse") config.transport = "sse";
  else if (type && /^(http|streamable-?http|streamableHttp)$/i.test(type)) {
    config.transport = "streamable-http";
  }
  return config;
}

/**
 * Read the `mcpServers` JSON that desktop MCP clients use (also VS Code's
 * `servers`). Entries: `{ command, args, env, cwd }` or `{ url, headers, type }`.
 *
 * @example
 * ```ts
 * import { parseMcpServersJson } from "@skillmux/core/mcp";
 * const servers = parseMcpServersJson(
 *   '{"mcpServers":{"docs":{"url":"https://docs.example.com/mcp"},"fs":{"command":"npx","args":["-y","server-fs"]}}}',
 * );
 * console.log(servers.map((s) => s.name)); // ["docs", "fs"]
 * ```
 */
export function parseMcpServersJson(source: string | Record<string, unknown>): McpServerConfig[] {
  let doc: unknown = source;
  if (typeof source === "string") {
    try {
      doc = JSON.parse(source);
    } catch (cause) {
      throw new PolicyError(`mcpServers JSON is not valid JSON: ${(cause as Error).message}`, {
        cause,
      });
    }
  }
  const table = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
  if (!isObject(table)) {
    throw new PolicyError('expected an object with an "mcpServers" (or "servers") table', {
      field: "mcpServers",
    });
  }
  return Object.entries(table).map(([name, raw]) => entry(name, raw, `mcpServers.${name}`));
}

/**
 * Write servers as `mcpServers` JSON (API keys become `Authorization` headers
 * only when `includeSecrets` is set; otherwise they are left out).
 *
 * @example
 * ```ts
 * import { toMcpServersJson } from "@skillmux/core/mcp";
 * console.log(JSON.stringify(toMcpServersJson([{ name: "docs", url: "https://docs.example.com/mcp" }])));
 * // {"mcpServers":{"docs":{"type":"http","url":"https://docs.example.com/mcp"}}}
 * ```
 */
export function toMcpServersJson(
  servers: readonly McpServerConfig[],
  options: { includeSecrets?: boolean } = {},
): { mcpServers: Record<string, Record<string, unknown>> } {
  const mcpServers: Record<string, Json> = {};
  for (const s of servers) {
    const out: Json = s.command
      ? {
        command: s.command,
        ...(s.args?.length ? { args: s.args } : {}),
        ...(s.env ? { env: s.env } : {}),
      }
      : { type: s.transport === "sse" ? "sse" : "http", url: s.url };
    if (s.cwd) out.cwd = s.cwd;
    const headers = { ...(s.headers ?? {}) };
    if (s.apiKey && options.includeSecrets) headers.Authorization = `Bearer ${s.apiKey}`;
    if (Object.keys(headers).length > 0 && !s.command) out.headers = headers;
    if (s.enabled === false) out.disabled = true;
    mcpServers[s.name] = out;
  }
  return { mcpServers };
}

/**
 * Read `[[mcp.servers]]` entries (`url`, `name`, `api_key`, and `command`,
 * `args`, `env`, `cwd`, `headers`, `enabled`, `transport`, `description`, `timeout_ms`,
 * `call_timeout_ms`, `max_total_ms`, stdio's `startup_timeout_ms`, `close_timeout_ms` and
 * `kill_timeout_ms`, and `id` when
 * a rename made it differ from the name) from a TOML
 * document. An entry without a name is named after its URL's host and port.
 *
 * @example
 * ```ts
 * import { parseServersToml } from "@skillmux/core/mcp";
 * const servers = parseServersToml('[[mcp.servers]]\nurl = "http://localhost:3000"\nname = "local"\napi_key = "k"\n');
 * console.log(servers[0]); // { name: "local", url: "http://localhost:3000", apiKey: "k" }
 * ```
 */
export function parseServersToml(source: string): McpServerConfig[] {
  let doc: Json;
  try {
    doc = parseToml(source) as Json;
  } catch (cause) {
    // The first line of the parser's message and where: its excerpt of the document could show
    // a secret on a neighbouring line.
    const { line, column } = cause as { line?: unknown; column?: unknown };
    const at = typeof line === "number"
      ? ` at line ${line}${typeof column === "number" ? `, column ${column}` : ""}`
      : "";
    const why = (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]
      .replace(/^Invalid TOML document: /, "");
    throw new PolicyError(`config TOML is not valid${at}: ${why}`, { cause });
  }
  const list = isObject(doc.mcp) ? doc.mcp.servers : undefined;
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    throw new PolicyError("mcp.servers must be an array of tables", { field: "mcp.servers" });
  }
  return list.map((raw, i) => {
    const where = `mcp.servers[${i}]`;
    const explicit = isObject(raw) ? text(raw.name, `${where}.name`) : undefined;
    const url = isObject(raw) ? text(raw.url, `${where}.url`) : undefined;
    return entry(explicit ?? (url ? nameFromUrl(url) : `server-${i + 1}`), raw, where);
  });
}

/**
 * Write `servers` as `[[mcp.servers]]` into a TOML document, keeping every
 * other table of `existing` (comments are not preserved).
 *
 * @example
 * ```ts
 * import { toServersToml } from "@skillmux/core/mcp";
 * console.log(toServersToml([{ name: "local", url: "http://localhost:3000", apiKey: "k" }]));
 * ```
 */
export function toServersToml(servers: readonly McpServerConfig[], existing = ""): string {
  const doc = (existing.trim() === "" ? {} : parseToml(existing)) as Json;
  const mcp = isObject(doc.mcp) ? { ...doc.mcp } : {};
  mcp.servers = servers.map((s) => {
    const out: Json = { name: s.name };
    if (s.url) out.url = s.url;
    if (s.command) out.command = s.command;
    if (s.args?.length) out.args = s.args;
    if (s.env) out.env = s.env;
    if (s.cwd) out.cwd = s.cwd;
    if (s.apiKey) out.api_key = s.apiKey;
    if (s.headers && Object.keys(s.headers).length > 0) out.headers = s.headers;
    if (s.transport && s.transport !== "auto") out.transport = s.transport;
    if (s.enabled === false) out.enabled = false;
    for (const [key, field] of TOML_TIMEOUTS) if (s[field] !== undefined) out[key] = s[field];
    const extra = s as McpServerConfig & { id?: string; description?: string };
    if (extra.description) out.description = extra.description;
    if (extra.id && extra.id !== s.name) out.id = extra.id;
    if (s.origin) out.origin = { ...s.origin };
    return out;
  });
  doc.mcp = mcp;
  return stringifyToml(doc);
}
