// Private: gather the raw entries of a catalog from its three kinds of source: the resolver's
// winning skills, MCP tools (registry discovery cache, or open clients) and host functions.

import { BoundedCache } from "../_bounded_cache.ts";
import { outlineOf } from "./_outline.ts";
import type { McpClient } from "../mcp/client/client_types.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { RegisteredServer } from "../mcp/registry/records.ts";
import type { McpServerConfig, Tool } from "../mcp/protocol/types.ts";
import type { Resolver } from "../resolve/types.ts";
import { isRemoteProvenance, mcpProvenance } from "../resolve/provenance.ts";
import type { Skill } from "../skill/types.ts";
import { encoder, sha256Digest } from "../skill/_text.ts";
import { TOOL_NAME } from "./_ids.ts";
import { discoveries } from "./_discoveries.ts";
import { schemaFlags } from "./_schema_text.ts";
import { addressesModel, cleanLine } from "./_text.ts";
import type {
  CatalogDiagnostic,
  CatalogEntry,
  HostFunction,
  JsonSchema,
  ToolPreviews,
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
  /**
   * Names the entry's keyword document besides its id: equal keys, equal documents (the index
   * segment of a source whose keys did not change is reused).
   */
  indexKey?: string;
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
  /** Tools of never-connected servers, listed without connecting. */
  previews?: ToolPreviews;
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
const digests = new BoundedCache<string, Promise<string>>(20_000);
const digestOf = (text: string): Promise<string> => {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = sha256Digest(encoder.encode(text));
    digests.set(text, digest);
    digest.catch(() => digests.delete(text));
  }
  return digest;
};

/** Cleaned lists by the list they came from: a listing shared per process is cleaned once. */
const cleaned = new WeakMap<readonly string[], Map<number, string[]>>();
function cleanAll(list: readonly string[], max: number): string[] {
  let byMax = cleaned.get(list);
  if (!byMax) cleaned.set(list, byMax = new Map());
  let out = byMax.get(max);
  if (!out) byMax.set(max, out = list.map((w) => cleanLine(w, max)).filter(Boolean));
  return out;
}

/** A list as key text, once per list. */
const listKeys = new WeakMap<readonly string[], string>();
function listKey(list: readonly string[]): string {
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, key = JSON.stringify(list));
  return key;
}

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

/**
 * The facts of a parsed skill. A skill without structured sections (no concepts, no examples:
 * most Agent Skills) is indexed by its body's outline: headings as its example tasks, the first
 * paragraph under each and the commands it shows as further words.
 */
export function factsOf(skill: Skill): SkillFacts {
  if (skill.concepts.length === 0 && skill.examples.length === 0 && skill.body.trim() !== "") {
    const { headings, paragraphs, commands } = outlineOf(skill.body);
    return { ...skill, keywords: [...paragraphs, ...commands, ...headings], tasks: [] };
  }
  const tasks = skill.examples.map((e) => e.task);
  return { ...skill, keywords: [...skill.concepts, ...tasks], tasks };
}

/** Skill entries by their listing row's keywords (a row listed again keeps its arrays). */
const skillEntries = new WeakMap<readonly string[], { inputs: unknown[]; raw: RawEntry }>();

const same = (a: unknown, b: unknown) =>
  a === b ||
  (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]));

/** The catalog entry of a skill, made once per process for a listing row seen before. */
export function skillEntry(
  skill: SkillFacts,
  source: string,
  location?: string,
  requested: readonly string[] = [],
  trustCommunity = false,
): RawEntry {
  const inputs = [
    skill.name,
    skill.description,
    skill.digest,
    skill.body,
    skill.tags,
    skill.tasks,
    skill.allowedTools,
    source,
    location,
    requested,
    trustCommunity,
  ];
  const known = skillEntries.get(skill.keywords);
  if (known && known.inputs.every((x, i) => same(x, inputs[i]))) return { ...known.raw };
  const raw = newSkillEntry(skill, source, location, requested, trustCommunity);
  skillEntries.set(skill.keywords, { inputs, raw });
  return { ...raw };
}

function newSkillEntry(
  skill: SkillFacts,
  source: string,
  location: string | undefined,
  requested: readonly string[],
  trustCommunity: boolean,
): RawEntry {
  const remote = isRemoteProvenance(source);
  const fenced = remote || (source === "community" && !trustCommunity);
  const asked = remote ? [...skill.allowedTools, ...requested] : skill.allowedTools;
  const body = skill.body ?? `(body not read yet: ${skill.digest})\n`;
  return {
    kind: "skill",
    name: skill.name,
    preferredId: skill.name,
    description: cleanLine(skill.description, DESCRIPTION_MAX),
    source,
    tags: [...cleanAll(skill.tags, 64)],
    keywords: [...cleanAll(skill.keywords, WORD_MAX)],
    tasks: [...cleanAll(skill.tasks, WORD_MAX)],
    needsConnection: false,
    remote,
    ...(fenced ? { fenced } : {}),
    ...flagsOf(fenced, `${skill.description}\n${skill.tags.join(" ")}`),
    digest: skill.digest,
    location,
    ...(remote && asked.length > 0 ? { requestedTools: [...asked] } : {}),
    definition: `description: ${skill.description}\nallowed-tools: ${asked.join(" ")}\n\n${body}`,
    indexKey: `${skill.digest}\u0000${skill.name}\u0000${skill.description}\u0000${
      listKey(skill.tags)
    }\u0000${listKey(skill.keywords)}\u0000${listKey(skill.tasks)}`,
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

/**
 * Tool entries (without their target) by server and tool: a listing seen before is not redone.
 * The least recently used is forgotten first.
 */
const toolEntries = new BoundedCache<string, Promise<RawEntry>>(20_000, "used");

/** The entry of `tool` of `server`, made once per process for the same tool. */
async function toolEntry(
  server: string,
  tool: Tool,
  target: ToolTarget,
  open: boolean,
): Promise<RawEntry> {
  const key = `${server}\u0000${open}\u0000${JSON.stringify(tool)}`;
  let made = toolEntries.get(key);
  if (!made) toolEntries.set(key, made = newToolEntry(server, tool, open));
  made.catch(() => toolEntries.delete(key));
  return { ...await made, target };
}

async function newToolEntry(server: string, tool: Tool, open: boolean): Promise<RawEntry> {
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
    source: mcpProvenance(server),
    server,
    tags: [],
    keywords: parameterWords(tool.inputSchema),
    needsConnection: !open,
    remote: true,
    ...toolFlags(title, tool),
    digest: await digestOf(definition),
    inputSchema: tool.inputSchema,
    definition,
  };
  entry.indexKey = entry.digest;
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
  const digest = await digestOf(definition);
  const tags = (fn.tags ?? []).map((t) => cleanLine(t, 64)).filter(Boolean);
  return {
    kind: "function",
    name: fn.name,
    preferredId: fn.name,
    description: cleanLine(fn.description, DESCRIPTION_MAX),
    source: "host",
    tags,
    keywords: parameterWords(inputSchema),
    needsConnection: false,
    remote: false,
    digest,
    inputSchema,
    definition,
    fn,
    indexKey: `${digest}\u0000${JSON.stringify(tags)}`,
  };
}

/**
 * The lower sources' versions of `held` skills, in priority order: while a winner waits for
 * approval, the next approved version answers instead of nothing. Each is made by `skillFrom`, as
 * the winners were (community trust, its server's endpoint). Only held skills with shadows are
 * read; a source that fails is passed over with a diagnostic.
 */
export async function alternates(
  resolver: Resolver,
  held: readonly RawEntry[],
  skillFrom: SkillMaker,
  diagnostics: CatalogDiagnostic[],
  signal?: AbortSignal,
): Promise<RawEntry[]> {
  const out: RawEntry[] = [];
  for (const raw of held) {
    for (const label of raw.shadows ?? []) {
      try {
        const hit = await resolver.resolve(`${label}:${raw.name}`, { signal });
        const entry = skillFrom(
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

/** The tools of the registry's servers (in server order) and the servers they came from. */
async function registryTools(
  sources: CollectSources,
  diagnostics: CatalogDiagnostic[],
): Promise<{ tools: RawEntry[]; servers: McpServerConfig[] }> {
  // Virtual servers (a multi-user view's `builtin-skills`) have no URL or command: no tools to
  // list, and their skills come through the resolver.
  const servers = sources.registry
    ? (await sources.registry.list()).filter((s) =>
      s.enabled !== false && (s.url !== undefined || s.command !== undefined)
    )
    : [];
  // A server never discovered that has a preview is listed from it, without connecting.
  const previewed = new Map<RegisteredServer, readonly Tool[]>();
  for (const server of sources.previews ? servers : []) {
    if (await sources.registry!.discovery(server.name).catch(() => undefined)) continue;
    const tools = await sources.previews!(server);
    if (tools?.length) previewed.set(server, tools);
  }
  const discovered = servers.filter((s) => !previewed.has(s));
  const found = discovered.length > 0
    ? await discoveries(sources.registry!, discovered, sources, diagnostics)
    : [];
  const tools: RawEntry[] = [];
  for (const server of servers) {
    const endpoint = endpointOf(server);
    const preview = previewed.get(server);
    const list = preview ?? found[discovered.indexOf(server)]?.tools ?? [];
    const listed = await Promise.all(
      list.map((tool) => toolEntry(server.name, tool, { tool, server }, false)),
    );
    for (const raw of listed) tools.push(at(preview ? { ...raw, preview: true } : raw, endpoint));
  }
  return { tools, servers };
}

/**
 * Turns a resolver's skill into an entry as {@linkcode collect} does: trusted or fenced by its
 * source, and tied to its server's endpoint when a registered server serves it.
 */
export type SkillMaker = (
  facts: SkillFacts,
  source: string,
  location?: string,
  requested?: readonly string[],
) => RawEntry;

/** What {@linkcode collect} found, and how it makes a skill's entry (for lower versions). */
export interface Collected {
  raws: RawEntry[];
  skillFrom: SkillMaker;
}

/** Every raw entry: skills, then MCP tools in server order, then host functions. */
export async function collect(
  sources: CollectSources,
  diagnostics: CatalogDiagnostic[],
): Promise<Collected> {
  const functions = await Promise.all((sources.functions ?? []).map(functionEntry));
  const names = new Set<string>();
  for (const fn of functions) {
    if (names.has(fn.name)) throw new TypeError(`Host function "${fn.name}" is registered twice`);
    names.add(fn.name);
  }
  // The servers are asked first: listing the skills (CPU for the built-ins, I/O for the rest)
  // runs while their answers travel, instead of before the first request leaves.
  const toolDiagnostics: CatalogDiagnostic[] = [];
  const registered = registryTools(sources, toolDiagnostics);
  registered.catch(() => {}); // awaited below, after the skills
  const skills: RawEntry[] = [];
  if (sources.resolver) {
    const listing = await sources.resolver.list({ signal: sources.signal });
    for (const d of listing.diagnostics) {
      if (d.problem === "warning") continue;
      // A source that timed out or failed is not invalid content: say which it was.
      const problem = d.problem === "timeout"
        ? "timeout"
        : d.problem === "error" || d.problem === "aborted"
        ? "unreachable"
        : "invalid";
      diagnostics.push({ source: d.source, problem, message: d.message });
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
  const { tools, servers } = await registered;
  diagnostics.push(...toolDiagnostics);
  // Skills of a registered server are tied to its endpoint as its tools are.
  const endpoints = new Map(servers.map((s) => [mcpProvenance(s.name), endpointOf(s)]));
  const tie = (raw: RawEntry) => {
    const endpoint = endpoints.get(raw.source);
    return endpoint === undefined ? raw : at(raw, endpoint);
  };
  skills.forEach((raw, i) => (skills[i] = tie(raw)));
  const clientDiagnostics = (sources.clients ?? []).map(() => [] as CatalogDiagnostic[]);
  const listed = await Promise.all((sources.clients ?? []).map(async (client, i) => {
    try {
      const listed = await client.listTools({
        signal: sources.signal,
        timeoutMs: sources.timeoutMs,
      });
      return await Promise.all(
        listed.map((tool) => toolEntry(client.name, tool, { tool, client }, true)),
      );
    } catch (error) {
      clientDiagnostics[i].push({
        source: mcpProvenance(client.name),
        problem: (error as Error)?.name === "TimeoutError" ? "timeout" : "unreachable",
        message: `${mcpProvenance(client.name)}: cannot list tools: ${(error as Error).message}`,
      });
      return [];
    }
  }));
  diagnostics.push(...clientDiagnostics.flat());
  // Cancelled while the servers were asked: their unanswered requests are the cancel, not their
  // failures, and the build is cancelled rather than kept with them as unreachable.
  sources.signal?.throwIfAborted();
  return {
    raws: [...skills, ...tools, ...listed.flat(), ...functions],
    skillFrom: (facts, source, location, requested) =>
      tie(skillEntry(facts, source, location, requested, sources.trustCommunity)),
  };
}
