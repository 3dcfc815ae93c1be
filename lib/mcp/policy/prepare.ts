/**
 * Turn a server configuration into what a transport needs, checking it first:
 * `${VAR}` templating, the URL policy and the header policy. Everything here
 * runs before any network I/O and throws `PolicyError` naming the field.
 *
 * @module
 */

// Long because: one pipeline that runs before any I/O (templating, the URL policy, the header
// policy, stdio commands), each step naming the field that fails.

import type { McpServerConfig } from "../protocol/types.ts";
import { policyError, quote } from "./_error.ts";
import { defaultTemplateEnv } from "./_env.ts";
import { headerValueProblem, trimHeaderValue } from "./_header_value.ts";
import { checkHeaderName, checkHeaders } from "./headers.ts";
import { expandTemplate } from "./template.ts";
import { checkUrl, type UrlPolicyOptions } from "./url.ts";

export type { UrlPolicyOptions } from "./url.ts";
export { checkConnectTarget } from "./connect_target.ts";
export { redact } from "./redact.ts";

/** Options of {@linkcode prepareServer}. */
export interface PrepareServerOptions {
  /** Variables for `${VAR}` templating; on Deno/Node the process environment by default, in browsers `{}`. */
  env?: Record<string, string | undefined>;
  /** The URL policy. */
  urlPolicy?: UrlPolicyOptions;
}

/** A checked server configuration, ready for a transport. */
export interface PreparedServer {
  /** The server name. */
  name: string;
  /** `http` for `url`, `stdio` for `command`. */
  kind: "http" | "stdio";
  /** The endpoint: `/mcp` appended when the configured URL had no path. */
  url?: URL;
  /**
   * The URL as configured, when `/mcp` was appended to it: a server mounted at `/` answers
   * there, and `connect()` tries it when `/mcp` is not found (HTTP 404/405).
   */
  rootUrl?: URL;
  /** The forced transport, if any. */
  transport: "auto" | "streamable-http" | "sse";
  /** Custom headers after templating and checks (never `Authorization`). */
  headers: Record<string, string>;
  /** `Bearer <apiKey>` when an API key is configured. A secret. */
  authorization?: string;
  /**
   * Every secret string (API key, header values) to redact from errors and logs. It may grow
   * while connected: an OAuth session adds its tokens and client secret as it obtains them, and
   * every consumer reads the list when it redacts.
   */
  secrets: string[];
  /** stdio: the program. */
  command?: string;
  /** stdio: its arguments. */
  args: string[];
  /** stdio: extra environment for the child. */
  env: Record<string, string>;
  /** stdio: working directory. */
  cwd?: string;
  /** stdio: the start-up allowance in ms, when the server sets one (`McpServerConfig.startupTimeoutMs`). */
  startupTimeoutMs?: number;
  /** stdio: the wait after closing stdin before SIGTERM in ms, when the server sets one. */
  closeTimeoutMs?: number;
  /** stdio: the wait after SIGTERM before SIGKILL in ms, when the server sets one. */
  killTimeoutMs?: number;
  /** The URL policy the transport applies to redirects and DNS. */
  urlPolicy: UrlPolicyOptions;
}

const SERVER_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const TRANSPORTS = ["auto", "streamable-http", "sse"] as const;
/** The waits of a stdio server's start and stop (milliseconds). */
const STDIO_WAITS = ["startupTimeoutMs", "closeTimeoutMs", "killTimeoutMs"] as const;

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/**
 * Check `config` and resolve templating. Throws `PolicyError` (with `field`
 * and `server`) before any network I/O:
 *
 * - `name`: 1–64 characters from `[A-Za-z0-9._-]` (it appears in `mcp:<name>` labels);
 * - exactly one of `url` (HTTP) and `command` (stdio);
 * - HTTP: `apiKey` and header values are expanded (`${VAR}`, `${VAR:-default}`,
 *   see `expandTemplate`) from `options.env`, else the process environment on
 *   Deno/Node, else `{}`; then the header policy (`checkHeaders`) and the URL
 *   policy (`checkUrl`) apply. A URL without a path gets `/mcp`
 *   (`http://h:3000` and `http://h:3000/` → `http://h:3000/mcp`; `http://h/x`
 *   is kept), and `rootUrl` keeps the URL as given for a server mounted at `/`
 *   (`connect()` tries it when `/mcp` answers 404/405); a fragment is dropped. An empty API key after expansion means none.
 * - stdio: `command`, `args`, `env` and `cwd` are checked for type and NUL
 *   characters; `apiKey` and `headers` are refused (pass secrets through `env`).
 *
 * `secrets` lists the API key and every header value (after templating) for
 * HTTP, and every `env` value for stdio, for `redact`.
 *
 * @example
 * ```ts
 * import { prepareServer } from "@skillmux/core/policy";
 * const prepared = prepareServer(
 *   { name: "local", url: "http://127.0.0.1:3001", apiKey: "${TOKEN}" },
 *   { env: { TOKEN: "sk-123" } },
 * );
 * console.log(prepared.url?.href); // "http://127.0.0.1:3001/mcp"
 * console.log(prepared.authorization); // "Bearer sk-123"
 * ```
 */
export function prepareServer(
  config: McpServerConfig,
  options: PrepareServerOptions = {},
): PreparedServer {
  if (config === null || typeof config !== "object") {
    throw policyError("a server configuration must be an object", "name");
  }
  const name = config.name;
  const server = typeof name === "string" ? name : undefined;
  if (typeof name !== "string" || !SERVER_NAME.test(name)) {
    throw policyError(
      `${
        typeof name === "string"
          ? `server name ${quote(name)} is not valid`
          : "server name is missing"
      }: ` +
        'use 1 to 64 letters, digits, ".", "_" or "-"',
      "name",
      server,
    );
  }
  for (const field of ["timeoutMs", "callTimeoutMs", "maxTotalMs"] as const) {
    const ms = config[field];
    if (ms !== undefined && !(typeof ms === "number" && ms > 0 && ms <= 2 ** 31 - 1)) {
      throw policyError(
        `${field} must be a number of milliseconds from 1 to ${2 ** 31 - 1}`,
        field,
        name,
      );
    }
  }
  for (const field of STDIO_WAITS) {
    const ms = config[field];
    if (ms !== undefined && !(typeof ms === "number" && ms >= 0 && ms <= 2 ** 31 - 1)) {
      throw policyError(
        `${field} must be a number of milliseconds from 0 to ${2 ** 31 - 1}`,
        field,
        name,
      );
    }
  }
  const transport = config.transport ?? "auto";
  if (!(TRANSPORTS as readonly string[]).includes(transport)) {
    throw policyError('transport must be "auto", "streamable-http" or "sse"', "transport", name);
  }
  const urlPolicy = { ...(options.urlPolicy ?? {}) };
  const hasUrl = isSet(config.url);
  const hasCommand = isSet(config.command);
  if (hasUrl && hasCommand) {
    throw policyError("set either url (HTTP) or command (stdio), not both", "command", name);
  }
  if (!hasUrl && !hasCommand) {
    throw policyError("set a url (HTTP) or a command (stdio)", "url", name);
  }
  if (hasCommand) return prepareStdio(config, name, transport, urlPolicy);

  const env = options.env ?? defaultTemplateEnv();
  if (typeof config.url !== "string") throw policyError("url must be a string", "url", name);
  const waits = STDIO_WAITS.find((field) => config[field] !== undefined);
  if (waits !== undefined) {
    throw policyError(
      `${waits} applies to stdio servers only (a program skillmux starts and stops)`,
      waits,
      name,
    );
  }
  const url = checkUrl(config.url, urlPolicy, "url", name);
  url.hash = "";
  let rootUrl: URL | undefined;
  if (url.pathname === "/" || url.pathname === "") {
    rootUrl = new URL(url.href);
    url.pathname = "/mcp";
  }

  const rawHeaders = config.headers ?? {};
  if (rawHeaders === null || typeof rawHeaders !== "object" || Array.isArray(rawHeaders)) {
    throw policyError(
      "headers must be an object of header names to string values",
      "headers",
      name,
    );
  }
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawHeaders)) {
    checkHeaderName(key, { server: name });
    if (typeof value !== "string") {
      throw policyError(
        `the value of header ${quote(key)} is not a string`,
        `headers.${key}`,
        name,
      );
    }
    expanded[key] = expandTemplate(value, env, `headers.${key}`, name);
  }
  const headers = checkHeaders(expanded, { server: name });

  let apiKey: string | undefined;
  if (isSet(config.apiKey)) {
    if (typeof config.apiKey !== "string") {
      throw policyError("apiKey must be a string", "apiKey", name);
    }
    const value = expandTemplate(config.apiKey, env, "apiKey", name);
    const problem = headerValueProblem(value);
    if (problem !== undefined) throw policyError(`apiKey ${problem}`, "apiKey", name);
    apiKey = trimHeaderValue(value) || undefined;
    if (apiKey !== undefined && /^bearer\s/i.test(apiKey)) {
      throw policyError(
        'apiKey starts with "Bearer ": give the bare token; skillmux adds "Bearer "',
        "apiKey",
        name,
      );
    }
  }
  const secrets = [apiKey, ...Object.values(headers)].filter((s): s is string => !!s);
  return {
    name,
    kind: "http",
    url,
    ...(rootUrl === undefined ? {} : { rootUrl }),
    transport,
    headers,
    authorization: apiKey === undefined ? undefined : `Bearer ${apiKey}`,
    secrets: [...new Set(secrets)],
    args: [],
    env: {},
    urlPolicy,
  };
}

function noNul(value: unknown, field: string, server: string, what: string): string {
  if (typeof value !== "string") throw policyError(`${what} must be a string`, field, server);
  if (value.includes("\0")) throw policyError(`${what} contains a NUL character`, field, server);
  return value;
}

function prepareStdio(
  config: McpServerConfig,
  name: string,
  transport: string,
  urlPolicy: UrlPolicyOptions,
): PreparedServer {
  if (transport !== "auto") {
    throw policyError(
      `transport ${quote(transport)} is for HTTP servers; a command uses stdio`,
      "transport",
      name,
    );
  }
  if (isSet(config.apiKey)) {
    throw policyError(
      "apiKey applies to HTTP servers only: pass secrets to a stdio server through env",
      "apiKey",
      name,
    );
  }
  if (config.headers !== undefined && Object.keys(config.headers ?? {}).length > 0) {
    throw policyError(
      "headers apply to HTTP servers only: pass settings to a stdio server through env",
      "headers",
      name,
    );
  }
  const command = noNul(config.command, "command", name, "command");
  const rawArgs = config.args ?? [];
  if (!Array.isArray(rawArgs)) throw policyError("args must be an array of strings", "args", name);
  const args = rawArgs.map((arg, i) => noNul(arg, `args.${i}`, name, `argument ${i}`));
  const rawEnv = config.env ?? {};
  if (rawEnv === null || typeof rawEnv !== "object" || Array.isArray(rawEnv)) {
    throw policyError("env must be an object of variable names to string values", "env", name);
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawEnv)) {
    if (key === "" || key.includes("=") || key.includes("\0")) {
      throw policyError(`environment variable name ${quote(key)} is not valid`, `env.${key}`, name);
    }
    env[key] = noNul(value, `env.${key}`, name, `the value of environment variable ${quote(key)}`);
  }
  const cwd = config.cwd === undefined ? undefined : noNul(config.cwd, "cwd", name, "cwd");
  const waits: Partial<Record<(typeof STDIO_WAITS)[number], number>> = {};
  for (const field of STDIO_WAITS) if (config[field] !== undefined) waits[field] = config[field];
  return {
    ...waits,
    name,
    kind: "stdio",
    transport: "auto",
    headers: {},
    secrets: [...new Set(Object.values(env).filter((v) => v !== ""))],
    command,
    args,
    env,
    cwd,
    urlPolicy,
  };
}
