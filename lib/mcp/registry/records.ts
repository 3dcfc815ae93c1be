/**
 * The registry's model: a server with a stable id, a description, an enabled flag and the
 * status of its last check, and the patch that {@linkcode ServerRegistry.update} applies.
 *
 * @module
 */

import { PolicyError } from "../protocol/errors.ts";
import type { McpServerConfig, ServerOrigin } from "../protocol/types.ts";

/** The outcome of the last ping or refresh of a server. */
export interface ServerStatus {
  /** Whether the server answered. */
  ok: boolean;
  /** ISO time of the check. */
  at: string;
  /** The check that set it (`add` and `update` connect and discover before saving). */
  via: "ping" | "refresh" | "add" | "update";
  /** Round-trip time of the ping, in milliseconds. */
  latencyMs?: number;
  /** What went wrong (never a secret). */
  error?: string;
  /** The error's name, e.g. `NetworkError`. */
  kind?: string;
  /** An `OAuthError`'s code, e.g. `sign_in_required` (the server needs a sign-in). */
  code?: string;
}

/** Who may see a server: its owner (and those it is shared with), everyone, or built in. */
export type ServerScope = "user" | "global" | "builtin";

/**
 * A server as the registry keeps it: the connection settings of {@linkcode McpServerConfig},
 * a stable `id` (names stay the handle people type, and may change), and what a service shows.
 */
export interface RegisteredServer extends McpServerConfig {
  /** Stable id: it never changes, even when the server is renamed. */
  id: string;
  /** What the server is for, shown in listings. */
  description?: string;
  /** The outcome of the last ping or refresh. */
  status?: ServerStatus;
  /** Multi-user registries: the owner's user id (`@global` for global servers). */
  owner?: string;
  /** Multi-user registries: who may see it. */
  scope?: ServerScope;
  /** Multi-user registries, owner's view only: the users it is shared with. */
  sharedWith?: string[];
  /** Multi-user registries: bumped by every change of the configuration (not by status). */
  revision?: number;
}

/**
 * A change to a registered server. A field that is absent is kept; `null` removes it. Setting
 * `url` makes an HTTP server (dropping `command`, `args`, `env`, `cwd`); setting `command`
 * makes a stdio server (dropping `url`, `apiKey`, `headers`, `transport`).
 */
export interface ServerPatch {
  /** A new name. */
  name?: string;
  /** A new URL (makes it an HTTP server). */
  url?: string;
  /** A new command (makes it a stdio server). */
  command?: string;
  /** The stdio command's arguments. */
  args?: string[] | null;
  /** Extra environment variables of the stdio command. */
  env?: Record<string, string> | null;
  /** The stdio command's working folder. */
  cwd?: string | null;
  /** The API key, sent as a bearer token. */
  apiKey?: string | null;
  /** Custom HTTP headers. */
  headers?: Record<string, string> | null;
  /** Whether the server is used. */
  enabled?: boolean;
  /** The HTTP transport to use. */
  transport?: "auto" | "streamable-http" | "sse" | null;
  /** A note for people. */
  description?: string | null;
  /** Discovery timeout in ms. */
  timeoutMs?: number | null;
  /** `tools/call` idle timeout in ms (progress resets it). */
  callTimeoutMs?: number | null;
  /** Longest `tools/call` in ms. */
  maxTotalMs?: number | null;
  /** The MCP registry entry it came from (`mcp update` of a newer version sets it). */
  origin?: ServerOrigin | null;
  /** stdio: the start-up allowance in ms. */
  startupTimeoutMs?: number | null;
  /** stdio: on close, the wait after stdin closes before SIGTERM, in ms. */
  closeTimeoutMs?: number | null;
  /** stdio: the wait after SIGTERM before SIGKILL, in ms. */
  killTimeoutMs?: number | null;
}

const HTTP_ONLY = ["apiKey", "headers", "transport"] as const;
const STDIO_ONLY = ["args", "env", "cwd"] as const;
const STDIO_WAITS = ["startupTimeoutMs", "closeTimeoutMs", "killTimeoutMs"] as const;
const REACH_FIELDS = ["url", "command", ...HTTP_ONLY, ...STDIO_ONLY] as const;
const TIMEOUT_FIELDS = ["timeoutMs", "callTimeoutMs", "maxTotalMs"] as const;
const PATCH_FIELDS = new Set<string>([
  ...REACH_FIELDS,
  ...TIMEOUT_FIELDS,
  ...STDIO_WAITS,
  "name",
  "enabled",
  "description",
  "origin",
]);

/**
 * Whether `patch` changes how the server is reached (URL, command, key, headers, transport…),
 * so that a connection check is worth making before saving it.
 *
 * @example
 * ```ts
 * import { patchChangesReach } from "@skillmux/core/mcp";
 * console.log(patchChangesReach({ description: "x" }), patchChangesReach({ apiKey: null })); // false true
 * ```
 */
export function patchChangesReach(patch: ServerPatch): boolean {
  return REACH_FIELDS.some((field) => patch[field] !== undefined);
}

/**
 * The most characters a server description may have.
 *
 * @example
 * ```ts
 * import { MAX_DESCRIPTION_LENGTH } from "@skillmux/core/mcp";
 * console.log(MAX_DESCRIPTION_LENGTH); // 1000
 * ```
 */
export const MAX_DESCRIPTION_LENGTH = 1000;

/**
 * Throw `PolicyError` unless `description` is a string of at most 1000 characters without
 * control characters other than line breaks and tabs.
 *
 * @example
 * ```ts
 * import { checkServerDescription } from "@skillmux/core/mcp";
 * checkServerDescription("Team docs: skills for the genomics pipeline"); // fine
 * ```
 */
export function checkServerDescription(description: unknown): void {
  if (typeof description !== "string") {
    throw new PolicyError("description must be a string", { field: "description" });
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new PolicyError(
      `description must be at most ${MAX_DESCRIPTION_LENGTH} characters, not ${description.length}`,
      { field: "description" },
    );
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(description)) {
    throw new PolicyError("description must not contain control characters", {
      field: "description",
    });
  }
}

/**
 * The server `patch` makes of `server` (a new object; `server` is not changed). Unknown fields
 * are refused with `PolicyError`; the result is not yet checked against the URL and header
 * policy (the registry does that with `prepareServer`).
 *
 * @example Rename a server and drop its API key
 * ```ts
 * import { applyServerPatch } from "@skillmux/core/mcp";
 * const next = applyServerPatch(
 *   { id: "s1", name: "docs", url: "https://docs.example.com/mcp", apiKey: "k" },
 *   { name: "team-docs", apiKey: null, description: "Team docs" },
 * );
 * console.log(next); // { id: "s1", name: "team-docs", url: "https://docs.example.com/mcp", description: "Team docs" }
 * ```
 */
export function applyServerPatch<T extends McpServerConfig & { description?: string }>(
  server: T,
  patch: ServerPatch,
): T {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
    throw new PolicyError("a server patch must be an object", { field: "patch" });
  }
  const unknown = Object.keys(patch).find((key) => !PATCH_FIELDS.has(key));
  if (unknown !== undefined) {
    throw new PolicyError(`cannot update "${unknown}": not a server field`, { field: unknown });
  }
  const next = { ...server } as Record<string, unknown>;
  if (patch.url !== undefined) {
    for (const key of [...STDIO_ONLY, ...STDIO_WAITS, "command"]) delete next[key];
  }
  if (patch.command !== undefined) { for (const key of [...HTTP_ONLY, "url"]) delete next[key]; }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      if (key === "name" || key === "url" || key === "command" || key === "enabled") {
        throw new PolicyError(`cannot remove "${key}"`, { field: key });
      }
      delete next[key];
    } else {
      next[key] = Array.isArray(value)
        ? [...value]
        : typeof value === "object"
        ? { ...value }
        : value;
    }
  }
  if (patch.description !== undefined && patch.description !== null) {
    checkServerDescription(patch.description);
  }
  if (patch.enabled !== undefined && typeof patch.enabled !== "boolean") {
    throw new PolicyError("enabled must be true or false", { field: "enabled" });
  }
  if (next.enabled === true) delete next.enabled;
  return next as T;
}

let lastTime = 0;
let sequence = 0;

/**
 * A new server id: time-ordered (ids sort in creation order) and random, e.g. `s-0lz3k9x1a000-08f2kq0v7w3x1`.
 *
 * @example
 * ```ts
 * import { newServerId } from "@skillmux/core/mcp";
 * console.log(newServerId() < newServerId()); // true (later ids sort after earlier ones)
 * ```
 */
export function newServerId(): string {
  const now = Date.now();
  sequence = now > lastTime ? 0 : sequence + 1;
  lastTime = Math.max(now, lastTime);
  const time = lastTime.toString(36).padStart(9, "0") + sequence.toString(36).padStart(3, "0");
  const random = crypto.getRandomValues(new Uint32Array(2));
  const tail = [...random].map((n) => n.toString(36).padStart(7, "0")).join("");
  return `s-${time}-${tail}`;
}
