// Private: gather the raw entries of a catalog from its three kinds of source: the resolver's
// winning skills, MCP tools (registry discovery cache, or open clients) and host functions.

import type { McpClient } from "../../mcp/client/client_types.ts";
import type { ServerRegistry } from "../../mcp/registry/registry.ts";
import type { RegisteredServer } from "../../mcp/registry/records.ts";
import type { McpServerConfig, Tool } from "../../mcp/protocol/types.ts";
import type { Resolver } from "../../resolve/types.ts";
import { mcpProvenance } from "../../resolve/provenance.ts";
import { discoveries } from "./_discoveries.ts";
import { functionEntry } from "./_function_entry.ts";
import { atEndpoint, endpointOf, type RawEntry } from "./_raw_entry.ts";
import { factsOf, skillEntry, type SkillFacts, type SkillMaker } from "./_skill_entry.ts";
import { toolEntry } from "./_tool_entry.ts";
import type { CatalogDiagnostic, HostFunction, ToolPreviews } from "../model/types.ts";

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
    for (const raw of listed) {
      tools.push(atEndpoint(preview ? { ...raw, preview: true } : raw, endpoint));
    }
  }
  return { tools, servers };
}

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
    return endpoint === undefined ? raw : atEndpoint(raw, endpoint);
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
