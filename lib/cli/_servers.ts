// Private: the registered servers a command lists from, connecting only what it must. Cached
// discovery is used while it is fresh; the servers whose cache is missing or old are refreshed
// first, stdio servers a few at a time with a timeout each (counted from each one's turn), and
// the catalog is handed those answers instead of asking again. Skills are read only from servers
// whose discovery shows skills (a `skill://` resource or template, or the skills extension), so
// a server without skills is not started for its skills.

import type { ServerDiscovery } from "../mcp/registry/discover.ts";
import type { RegisteredServer } from "../mcp/registry/records.ts";
import type { RefreshResult, ServerRegistry } from "../mcp/registry/types.ts";
import { offersSkills } from "../mcp/skills/extension.ts";
import { hasSkillTemplate, skillResources } from "../resolve/skill_resources.ts";
import { mcpProvenance } from "../resolve/provenance.ts";
import type { SkillSource, SourceTier } from "../resolve/types.ts";
import type { Context } from "./_context.ts";

/** A cached discovery older than this is refreshed (the catalog's default too). */
const MAX_AGE_MS = 3_600_000;
/** Each server's timeout for discovery requests once it has started. */
export const DISCOVERY_TIMEOUT_MS = 10_000;

/** What {@linkcode commandServers} gives a command. */
export interface CommandServers {
  /** The registry for the catalog: `only` servers listed, refreshes answered from this run. */
  registry: ServerRegistry;
  /** `tiers` with the MCP skill sources of servers that have no skills taken out (disposed). */
  skillSources(tiers: SourceTier[]): Promise<SourceTier[]>;
}

/** Whether a discovery shows skills: a `skill://` resource or template, or the skills extension. */
function servesSkills(found: ServerDiscovery | undefined): boolean {
  if (found === undefined) return false;
  return offersSkills({ capabilities: found.capabilities ?? {} }) ||
    skillResources(found.resources ?? []).length > 0 ||
    hasSkillTemplate(found.resourceTemplates ?? []);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Refresh the stale discoveries among the registry's enabled servers (or `only` these names), and
 * wrap the registry so the catalog uses them. Nothing connects when every cache is fresh.
 */
export async function commandServers(
  ctx: Context,
  registry: ServerRegistry,
  only?: readonly string[],
): Promise<CommandServers> {
  const chosen = (servers: RegisteredServer[]) =>
    only === undefined ? servers : servers.filter((s) => only.includes(s.name));
  const servers = chosen(await registry.list()).filter((s) =>
    s.enabled !== false && (s.url !== undefined || s.command !== undefined)
  );
  const found = new Map<string, ServerDiscovery | undefined>();
  await Promise.all(servers.map(async (s) => {
    found.set(s.name, await registry.discovery(s.name).catch(() => undefined));
  }));
  const now = Date.now();
  const stale = servers.filter((s) => {
    const cached = found.get(s.name);
    return cached === undefined || now - Date.parse(cached.discoveredAt) > MAX_AGE_MS;
  });
  const answered = new Map<string, RefreshResult>();
  if (stale.length > 0) {
    if (ctx.io.stderrIsTerminal === true && !ctx.json) {
      ctx.err(ctx.paint.dim(
        `Discovering ${plural(stale.length, "server", "servers")} (nothing cached yet or older ` +
          `than an hour): ${stale.map((s) => s.name).join(", ")}…`,
      ));
    }
    const rows = await registry.refresh(stale.map((s) => s.name), {
      timeoutMs: DISCOVERY_TIMEOUT_MS,
    });
    for (const row of rows) {
      answered.set(row.name, row);
      if (row.ok) found.set(row.name, row.discovery);
    }
  }
  const view: ServerRegistry = {
    ...registry,
    list: async () => chosen(await registry.list()),
    // The catalog's first build re-asks servers whose discovery is missing: this run has their
    // answer. Used once: a later rebuild (a gateway following changes) asks them again.
    refresh(names, options) {
      if (names === undefined || !names.every((name) => answered.has(name))) {
        return registry.refresh(names, options);
      }
      const rows = names.map((name) => answered.get(name)!);
      for (const name of names) answered.delete(name);
      return Promise.resolve(rows);
    },
  };
  return {
    registry: view,
    async skillSources(tiers) {
      const skip = new Set(
        servers.filter((s) => !servesSkills(found.get(s.name))).map((s) => mcpProvenance(s.name)),
      );
      const dropped: SkillSource[] = [];
      const keep = (source: SkillSource) => {
        if (!skip.has(source.label)) return true;
        dropped.push(source);
        return false;
      };
      const out: SourceTier[] = [];
      for (const tier of tiers) {
        if (!Array.isArray(tier)) {
          if (keep(tier as SkillSource)) out.push(tier);
          continue;
        }
        const group = (tier as readonly SkillSource[]).filter(keep);
        if (group.length > 0) out.push(group);
      }
      await Promise.all(
        dropped.map((s) => (s as { dispose?: () => Promise<void> }).dispose?.().catch(() => {})),
      );
      return out;
    },
  };
}
