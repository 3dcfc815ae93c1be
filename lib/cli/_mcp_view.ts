// Private: how `skillmux mcp …` shows a server, and the --header option it parses.

import type { RegisteredServer } from "../mcp/registry/records.ts";
import { CliError, type Values } from "./_args.ts";
import type { Context } from "./_context.ts";
import { suggesting } from "./_suggest.ts";

interface ServerView {
  id: string;
  name: string;
  description?: string;
  url?: string;
  command?: string;
  args?: string[];
  transport: string;
  apiKey: boolean;
  headers: string[];
  enabled: boolean;
  status?: RegisteredServer["status"];
  origin?: RegisteredServer["origin"];
}

/** A server as shown: never the API key, never header values (they may be secrets). */
export function view(s: RegisteredServer): ServerView {
  return {
    id: s.id,
    name: s.name,
    ...(s.description ? { description: s.description } : {}),
    ...(s.url ? { url: s.url } : { command: s.command, args: s.args ?? [] }),
    transport: s.transport ?? (s.url ? "auto" : "stdio"),
    apiKey: s.apiKey !== undefined,
    headers: Object.keys(s.headers ?? {}),
    enabled: s.enabled !== false,
    ...(s.status ? { status: s.status } : {}),
    ...(s.origin ? { origin: s.origin } : {}),
  };
}

/** `ok 12 ms (ping, 2026-…)`, `down: <error> (…)`, `slow (timed out): <error> (…)` or `never checked`. */
export function statusNote(status: RegisteredServer["status"]): string {
  if (!status) return "never checked";
  const when = `${status.via} ${status.at.replace("T", " ").slice(0, 19)}`;
  if (status.ok) {
    return `ok${
      status.latencyMs === undefined ? "" : ` ${status.latencyMs.toFixed(0)} ms`
    } (${when})`;
  }
  // A server that did not answer in time is slow, not down.
  const state = status.kind === "TimeoutError" ? "slow (timed out)" : "down";
  return `${state}: ${status.error ?? status.kind ?? "error"} (${when})`;
}

/** A server's version as shown: `v1.2.3` whether or not the server wrote the `v`. */
export function versionLabel(version: string | undefined): string {
  const text = (version ?? "").trim();
  if (text === "") return "";
  return /^v\d/i.test(text) ? text : `v${text}`;
}

/** A server's name and version as shown: `everything v1.2.3`. */
export function serverLabel(info: { name: string; version?: string }): string {
  return [info.name, versionLabel(info.version)].filter(Boolean).join(" ");
}

/** Why a `--header` is not `Name: value`, naming at most the header's name: never its value. */
function badHeader(line: string, colon: number): string {
  const expected = 'expected "Name: value" with a colon, e.g. --header "X-Api-Key: ${MY_KEY}"';
  if (colon === 0) return `Invalid --header: no name before the colon; ${expected}`;
  const name = line.trim().split(/\s+/);
  return name.length > 1
    ? `Invalid --header "${name[0]} …" (value not shown): ${expected}`
    : `Invalid --header (one word, not shown): ${expected}`;
}

/** The `--header "Name: value"` options as a table, or `undefined` when none was given. */
export function headers(values: Values): Record<string, string> | undefined {
  const list = (values.header as string[] | undefined) ?? [];
  if (list.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const line of list) {
    const at = line.indexOf(":");
    if (at <= 0) throw new CliError(badHeader(line, at));
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** Run `fn` on the server `target`; when no server matches, say which name was probably meant. */
export function onServer<T>(ctx: Context, target: string, fn: () => Promise<T>): Promise<T> {
  return suggesting(
    target,
    fn,
    (error) => error instanceof Error && /^No server (matches|named) /.test(error.message),
    async () => (await (await ctx.registry()).list()).map((s) => s.name),
  );
}
