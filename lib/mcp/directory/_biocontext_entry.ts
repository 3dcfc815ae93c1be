// Private: one BioContext registry entry (its `meta.yaml`, a schema.org SoftwareApplication, and
// its `mcp.json`, an `mcpServers` table) made a DirectoryEntry. A `url` entry, and the
// `npx mcp-remote <url>` bridge, become a remote (skillmux speaks HTTP itself); a command stays
// a command, to be checked before it runs. Env values that are placeholders ("YOUR KEY",
// "your-key-here", "ADD_YOUR_TOKEN") become values to ask for; others are defaults.

import * as v from "valibot";
import { DirectoryError } from "./errors.ts";
import type { ServerJson, ServerRemote } from "./server_json.ts";
import { describeIssue } from "./_issues.ts";
import type { DirectoryCommand, DirectoryEntry, ToolPreview } from "./types.ts";

/** BioContext's identifier pattern (its schema.json): `owner/repository`. */
export const BIOCONTEXT_NAME: RegExp = /^[a-zA-Z0-9_-]+\/[a-zA-Z0-9_.-]+$/;

const str = (max: number) => v.pipe(v.string(), v.maxLength(max));
const Meta = v.object({
  identifier: v.pipe(v.string(), v.regex(BIOCONTEXT_NAME, "owner/repository")),
  name: v.optional(str(200)),
  description: v.optional(str(4_000)),
  codeRepository: v.optional(str(2_048)),
  url: v.optional(str(2_048)),
  keywords: v.optional(v.pipe(v.array(str(200)), v.maxLength(100))),
  datePublished: v.optional(v.union([str(40), v.date()])),
  version: v.optional(v.union([str(100), v.number()])),
  softwareHelp: v.optional(v.object({ url: v.optional(str(2_048)) })),
});
const Launch = v.union([
  v.object({ url: str(2_048) }),
  v.object({
    command: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
    args: v.optional(v.pipe(v.array(str(8_000)), v.maxLength(256))),
    env: v.optional(v.record(str(200), str(4_000))),
  }),
]);
const McpJson = v.object({ mcpServers: v.record(str(300), v.unknown()) });

const PLACEHOLDER = /^(your[\s_-]|add[\s_-]your|<.*>$|\.\.\.|changeme|xxx)/i;
const SECRET = /(key|token|secret|password|passwd|credential)/i;

/** The parsed `meta.yaml`, checked, or a DirectoryError naming the file and field. */
export function checkMeta(value: unknown, where: string): v.InferOutput<typeof Meta> {
  const checked = v.safeParse(Meta, value);
  if (!checked.success) {
    throw new DirectoryError("invalid", `${where}: ${describeIssue(checked.issues).message}`, {
      field: describeIssue(checked.issues).field,
    });
  }
  return checked.output;
}

/** The launch entry of `mcp.json` for `identifier` (else its only one). */
function launchOf(doc: unknown, identifier: string, where: string) {
  const table = v.safeParse(McpJson, doc);
  if (!table.success) {
    throw new DirectoryError("invalid", `${where}: expected { "mcpServers": { … } }`, {
      field: "mcpServers",
      server: identifier,
    });
  }
  const servers = table.output.mcpServers;
  const raw = servers[identifier] ?? Object.values(servers)[0];
  const launch = v.safeParse(Launch, raw);
  if (!launch.success) {
    throw new DirectoryError(
      "invalid",
      `${where}: mcpServers entry must be { "url" } or { "command", "args", "env" }`,
      { field: `mcpServers.${identifier}`, server: identifier },
    );
  }
  return launch.output;
}

function remote(url: string): ServerRemote {
  return { type: /\/sse\/?$/.test(url) ? "sse" : "streamable-http", url };
}

/** `npx [-y] mcp-remote <url>`: a stdio bridge to a remote that skillmux reaches directly. */
function bridged(command: string, args: readonly string[]): string | undefined {
  if (command !== "npx") return undefined;
  const rest = args.filter((a) => a !== "-y" && a !== "--yes");
  return rest.length === 2 && /^mcp-remote(@[\w.-]+)?$/.test(rest[0]) &&
      /^https?:\/\//.test(rest[1])
    ? rest[1]
    : undefined;
}

/** The entry of one server folder. */
export function bioContextEntry(
  metaDoc: unknown,
  mcpDoc: unknown | undefined,
  tools: ToolPreview[] | undefined,
  directory: string,
  where: string,
): DirectoryEntry {
  const meta = checkMeta(metaDoc, `${where}/meta.yaml`);
  const launch = mcpDoc === undefined
    ? undefined
    : launchOf(mcpDoc, meta.identifier, `${where}/mcp.json`);
  const published = meta.datePublished instanceof Date
    ? meta.datePublished.toISOString().slice(0, 10)
    : meta.datePublished;
  const server: ServerJson = {
    name: meta.identifier,
    description: (meta.description ?? meta.name ?? meta.identifier).trim(),
    version: String(meta.version ?? published ?? "unversioned"),
    ...(meta.name ? { title: meta.name } : {}),
    ...(meta.softwareHelp?.url ? { websiteUrl: meta.softwareHelp.url } : {}),
    ...(meta.codeRepository ? { repository: { url: meta.codeRepository } } : {}),
  };
  let command: DirectoryCommand | undefined;
  if (launch && "url" in launch) server.remotes = [remote(launch.url)];
  else if (launch) {
    const args = launch.args ?? [];
    const via = bridged(launch.command, args);
    if (via) server.remotes = [remote(via)];
    else {
      command = {
        command: launch.command,
        args: [...args],
        env: Object.entries(launch.env ?? {}).map(([name, value]) => {
          const isSecret = SECRET.test(name);
          return PLACEHOLDER.test(value.trim())
            ? { name, placeholder: value, isSecret }
            : { name, value, isSecret };
        }),
      };
    }
  }
  // The hosted endpoint `meta.yaml` names, when it looks like one, unless mcp.json gave it.
  const hosted = meta.url && URL.canParse(meta.url) && /mcp|sse/i.test(new URL(meta.url).pathname);
  if (hosted && !server.remotes?.some((r) => r.url === meta.url)) {
    server.remotes = [...(server.remotes ?? []), remote(meta.url!)];
  }
  return {
    server,
    status: "active",
    directory,
    ...(published ? { publishedAt: published } : {}),
    ...(command ? { command } : {}),
    ...(tools?.length ? { tools } : {}),
    ...(meta.keywords?.length ? { keywords: meta.keywords } : {}),
  };
}

const Tools = v.object({
  mcp_servers: v.record(
    str(300),
    v.object({
      tools: v.optional(v.pipe(
        v.array(v.object({
          name: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
          description: v.optional(v.nullable(str(8_000))),
          input_schema: v.optional(v.record(v.string(), v.unknown())),
        })),
        v.maxLength(500),
      )),
    }),
  ),
});

/** The tools of each server in `mcp_tools.json`; a bad document gives none (it is optional). */
export function toolsOf(doc: unknown): Map<string, ToolPreview[]> {
  const out = new Map<string, ToolPreview[]>();
  const checked = v.safeParse(Tools, doc);
  if (!checked.success) return out;
  for (const [name, server] of Object.entries(checked.output.mcp_servers)) {
    out.set(
      name,
      (server.tools ?? []).map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        ...(t.input_schema ? { inputSchema: t.input_schema } : {}),
      })),
    );
  }
  return out;
}
