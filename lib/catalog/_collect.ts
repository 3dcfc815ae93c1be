// Private: gather the raw entries of a catalog from its three kinds of source: the resolver's
// winning skills, MCP tools (registry discovery cache, or open clients) and host functions.

import type { McpClient } from "../mcp/client/client_types.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { ServerDiscovery } from "../mcp/registry/discover.ts";
import type { McpServerConfig, Tool } from "../mcp/protocol/types.ts";
import type { Resolver } from "../resolve/types.ts";
import type { Skill } from "../skill/types.ts";
import { encoder, sha256Digest } from "../skill/_text.ts";
import { TOOL_NAME } from "./_ids.ts";
import { schemaFlags } from "./_schema_text.ts";
import { addressesModel, cleanLine } from "./_text.ts";
import type {
  CatalogDiagnostic,
  CatalogEntry,
  HostFunction,
  JsonSchema,
  ToolTarget,
} from "./types.ts";

/** An entry before it has an id and an approval state. */
export interface RawEntry extends Omit<CatalogEntry, "id" | "approval"> {
  /** The id it would like (a name, or `server__tool`). */
  preferredId: string;
  /** The definition as text, for approval diffs. */
  definition: string;
  /** MCP tools: where it runs. */
  target?: ToolTarget;
  /** Host functions: the function. */
  fn?: HostFunction;
  /** Skills: their example tasks (also in `keywords`), weighed like tags for relevance. */
  tasks?: string[];
  /** Skills: labels of lower sources that have a skill of the same name. */
  shadows?: string[];
  /**
   * Skills: a lower source's version, read because the winner is held for approval; it answers
   * under the winner's id while the winner waits.
   */
  alternate?: boolean;
  /** Entries of a registered server: where it runs (its URL, or its stdio command and args). */
  endpoint?: string;
}

/**
 * Where a registered server runs, as approvals record it: its URL, or its stdio program and
 * arguments. An approval holds for this endpoint only.
 */
export function endpointOf(server: McpServerConfig): string {
  return server.url !== undefined
    ? `url ${server.url}`
    : `stdio ${JSON.stringify([server.command ?? "", ...(server.args ?? [])])}`;
}

/** `raw` tied to `endpoint`: the endpoint is recorded with its approval and leads its diff. */
function at(raw: RawEntry, endpoint: string): RawEntry {
  return { ...raw, endpoint, definition: `endpoint: ${endpoint}\n${raw.definition}` };
}

/** Where a catalog's entries come from. */
export interface CollectSources {
  resolver?: Resolver;
  registry?: ServerRegistry;
  clients?: readonly McpClient[];
  functions?: readonly HostFunction[];
  /** Oldest registry discovery used without reconnecting, in milliseconds. */
  maxAgeMs: number;
  /** Community skills enter prompts unfenced. */
  trustCommunity?: boolean;
  /** Per-server timeout for re-discovery and client listings. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const DESCRIPTION_MAX = 1_024;
const WORD_MAX = 200;

/** JSON with object keys sorted at every level, so equal definitions give equal digests. */
export function canonicalJson(value: unknown, indent?: number): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === "object"
      ? Object.fromEntries(
        Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      )
      : v;
  return JSON.stringify(sort(value), null, indent);
}

/** Digests of definitions seen in this process: a warm build digests nothing it digested before. */
const digests = new Map<string, Promise<string>>();
const DIGESTS_KEPT = 20_000;
const digestOf = (text: string): Promise<string> => {
  let digest = digests.get(text);
  if (digest === undefined) {
    if (digests.size >= DIGESTS_KEPT) digests.delete(digests.keys().next().value!);
    digest = sha256Digest(encoder.encode(text));
    digests.set(text, digest);
    digest.catch(() => digests.delete(text));
  }
  return digest;
};

/** `{ flags }` when untrusted `text` seems to address the model. */
function flagsOf(untrusted: boolean, text: string): { flags?: string[] } {
  const flags = untrusted ? addressesModel(text) : [];
  return flags.length > 0 ? { flags } : {};
}

/** What a catalog entry needs of a skill: a listing row's fields, or a parsed skill's. */
export interface SkillFacts {
  name: string;
  description: string;
  digest: string;
  tags: readonly string[];
  /** Concepts and example tasks. */
  keywords: readonly string[];
  tasks: readonly string[];
  /** Granted `allowed-tools` (none for a remote skill). */
  allowedTools: readonly string[];
  /** The body, when it was read; else the approval definition names the digest in its place. */
  body?: string;
}

/** The facts of a parsed skill. */
export function factsOf(skill: Skill): SkillFacts {
  const tasks = skill.examples.map((e) => e.task);
  return { ...skill, keywords: [...skill.concepts, ...tasks], tasks };
}

export function skillEntry(
  skill: SkillFacts,
  source: string,
  location?: string,
  requested: readonly string[] = [],
  trustCommunity = false,
): RawEntry {
  const remote = source.startsWith("mcp:");
  const fenced = remote || (source === "community" && !trustCommunity);
  const asked = remote ? [...skill.allowedTools, ...requested] : skill.allowedTools;
  const body = skill.body ?? `(body not read yet: ${skill.digest})\n`;
  return {
    kind: "skill",
    name: skill.name,
    preferredId: skill.name,
    description: cleanLine(skill.description, DESCRIPTION_MAX),
    source,
    tags: skill.tags.map((t) => cleanLine(t, 64)).filter(Boolean),
    keywords: skill.keywords.map((w) => cleanLine(w, WORD_MAX)).filter(Boolean),
    tasks: skill.tasks.map((t) => cleanLine(t, WORD_MAX)).filter(Boolean),
    needsConnection: false,
    remote,
    ...(fenced ? { fenced } : {}),
    ...flagsOf(fenced, `${skill.description}\n${skill.tags.join(" ")}`),
    digest: skill.digest,
    location,
    ...(remote && asked.length > 0 ? { requestedTools: [...asked] } : {}),
    definition: `description: ${skill.description}\nallowed-tools: ${asked.join(" ")}\n\n${body}`,
  };
}

/** Parameter names and descriptions of a JSON Schema, for ranking. */
function parameterWords(schema: JsonSchema | undefined): string[] {
  const props = schema?.properties;
  if (props === null || typeof props !== "object") return [];
  return Object.entries(props as Record<string, { description?: unknown }>).flatMap((
    [name, prop],
  ) => [name, typeof prop?.description === "string" ? prop.description : ""])
    .map((w) => cleanLine(w, WORD_MAX)).filter(Boolean);
}

/** `{ flags }` when a remote tool's description or any string of its input schema addresses the model. */
function toolFlags(title: string | undefined, tool: Tool): { flags?: string[] } {
  const flags = [
    ...addressesModel(`${title ?? ""}\n${tool.description ?? ""}`).map((why) =>
      `its description ${why}`
    ),
    ...schemaFlags(tool.inputSchema),
  ];
  return flags.length > 0 ? { flags } : {};
}

async function toolEntry(server: string, tool: Tool, target: ToolTarget, open: boolean) {
  const title = tool.title ??
    (typeof tool.annotations?.title === "string" ? tool.annotations.title : undefined);
  const definition = canonicalJson({
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  }, 2);
  const entry: RawEntry = {
    kind: "tool",
    name: tool.name,
    preferredId: `${server}__${tool.name}`,
    ...(title ? { title: cleanLine(title, 120) } : {}),
    description: cleanLine(tool.description ?? "", DESCRIPTION_MAX),
    source: `mcp:${server}`,
    server,
    tags: [],
    keywords: parameterWords(tool.inputSchema),
    needsConnection: !open,
    remote: true,
    ...toolFlags(title, tool),
    digest: await digestOf(definition),
    inputSchema: tool.inputSchema,
    definition,
    target,
  };
  return entry;
}

async function functionEntry(fn: HostFunction): Promise<RawEntry> {
  if (typeof fn?.name !== "string" || !TOOL_NAME.test(fn.name)) {
    throw new TypeError(
      `Host function ${
        JSON.stringify(fn?.name)
      }: the name must be 1-64 letters, digits, "_" or "-"`,
    );
  }
  if (typeof fn.description !== "string" || fn.description.trim() === "") {
    throw new TypeError(`Host function "${fn.name}": description must be a non-empty string`);
  }
  if (typeof fn.handler !== "function") {
    throw new TypeError(`Host function "${fn.name}": handler must be a function`);
  }
  const inputSchema = fn.inputSchema ?? { type: "object", properties: {} };
  const definition = canonicalJson({ name: fn.name, description: fn.description, inputSchema }, 2);
  return {
    kind: "function",
    name: fn.name,
    preferredId: fn.name,
    description: cleanLine(fn.description, DESCRIPTION_MAX),
    source: "host",
    tags: (fn.tags ?? []).map((t) => cleanLine(t, 64)).filter(Boolean),
    keywords: parameterWords(inputSchema),
    needsConnection: false,
    remote: false,
    digest: await digestOf(definition),
    inputSchema,
    definition,
    fn,
  };
}

/** The registry's cached discovery of `server`, re-discovered when missing or older than allowed. */
async function discovery(
  registry: ServerRegistry,
  server: McpServerConfig,
  sources: CollectSources,
  diagnostics: CatalogDiagnostic[],
): Promise<ServerDiscovery | undefined> {
  const label = `mcp:${server.name}`;
  const cached = await registry.discovery(server.name).catch(() => undefined);
  const age = cached ? Date.now() - Date.parse(cached.discoveredAt) : Infinity;
  if (cached && age <= sources.maxAgeMs) return cached;
  const [row] = await registry.refresh([server.name], {
    signal: sources.signal,
    timeoutMs: sources.timeoutMs,
    deadlineMs: sources.timeoutMs * 2,
  });
  if (row?.ok) return row.discovery;
  const why = row && !row.ok ? row.error : "no answer";
  diagnostics.push(
    cached
      ? {
        source: label,
        problem: "stale",
        message:
          `${label}: cannot re-discover (${why}); using the tools cached at ${cached.discoveredAt}`,
      }
      : {
        source: label,
        problem: "unreachable",
        message: `${label}: cannot discover tools: ${why}`,
      },
  );
  return cached;
}

/**
 * The lower sources' versions of `held` skills, in priority order: while a winner waits for
 * approval, the next approved version answers instead of nothing. Only held skills with shadows
 * are read; a source that fails is passed over with a diagnostic.
 */
export async function alternates(
  resolver: Resolver,
  held: readonly RawEntry[],
  diagnostics: CatalogDiagnostic[],
  signal?: AbortSignal,
): Promise<RawEntry[]> {
  const out: RawEntry[] = [];
  for (const raw of held) {
    for (const label of raw.shadows ?? []) {
      try {
        const hit = await resolver.resolve(`${label}:${raw.name}`, { signal });
        const entry = skillEntry(
          factsOf(hit.skill),
          hit.source,
          hit.location,
          hit.requestedAllowedTools,
        );
        out.push({ ...entry, alternate: true });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        diagnostics.push({
          source: label,
          problem: "invalid",
          message:
            `${label}: cannot read skill "${raw.name}" to stand in for the held ${raw.source} version: ${
              (error as Error).message.slice(0, 300)
            }`,
        });
      }
    }
  }
  return out;
}

/** Every raw entry: skills, then MCP tools in server order, then host functions. */
export async function collect(
  sources: CollectSources,
  diagnostics: CatalogDiagnostic[],
): Promise<RawEntry[]> {
  const functions = await Promise.all((sources.functions ?? []).map(functionEntry));
  const names = new Set<string>();
  for (const fn of functions) {
    if (names.has(fn.name)) throw new TypeError(`Host function "${fn.name}" is registered twice`);
    names.add(fn.name);
  }
  const skills: RawEntry[] = [];
  if (sources.resolver) {
    const listing = await sources.resolver.list({ signal: sources.signal });
    for (const d of listing.diagnostics) {
      if (d.problem !== "warning") {
        diagnostics.push({ source: d.source, problem: "invalid", message: d.message });
      }
    }
    for (const s of listing.skills) {
      const facts: SkillFacts = s.skill ? factsOf(s.skill) : s;
      const raw = skillEntry(
        facts,
        s.source,
        s.location,
        s.requestedAllowedTools,
        sources.trustCommunity,
      );
      if (s.shadows.length > 0) raw.shadows = [...s.shadows];
      skills.push(raw);
    }
  }
  const tools: RawEntry[] = [];
  // Virtual servers (a multi-user view's `builtin-skills`) have no URL or command: no tools to
  // list, and their skills come through the resolver.
  const servers = sources.registry
    ? (await sources.registry.list()).filter((s) =>
      s.enabled !== false && (s.url !== undefined || s.command !== undefined)
    )
    : [];
  const found = await Promise.all(
    servers.map((server) => discovery(sources.registry!, server, sources, diagnostics)),
  );
  for (const [i, server] of servers.entries()) {
    for (const tool of found[i]?.tools ?? []) {
      tools.push(
        at(await toolEntry(server.name, tool, { tool, server }, false), endpointOf(server)),
      );
    }
  }
  // Skills of a registered server are tied to its endpoint as its tools are.
  const endpoints = new Map(servers.map((s) => [`mcp:${s.name}`, endpointOf(s)]));
  skills.forEach((raw, i) => {
    const endpoint = endpoints.get(raw.source);
    if (endpoint !== undefined) skills[i] = at(raw, endpoint);
  });
  for (const client of sources.clients ?? []) {
    try {
      const listed = await client.listTools({
        signal: sources.signal,
        timeoutMs: sources.timeoutMs,
      });
      for (const tool of listed) {
        tools.push(await toolEntry(client.name, tool, { tool, client }, true));
      }
    } catch (error) {
      diagnostics.push({
        source: `mcp:${client.name}`,
        problem: "unreachable",
        message: `mcp:${client.name}: cannot list tools: ${(error as Error).message}`,
      });
    }
  }
  return [...skills, ...tools, ...functions];
}
