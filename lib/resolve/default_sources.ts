/**
 * Zero-config resolution: the platform's default sources, picked by feature detection.
 *
 * @module
 */

import { hasNodeBuiltins } from "../_node.ts";
import { createBuiltinSource } from "./builtin_source.ts";
import { createResolver } from "./resolver.ts";
import { createStorageSource } from "./storage_source.ts";
import { createServerRegistry } from "../mcp/registry/registry.ts";
import { createMcpSkillSources } from "./mcp_source.ts";
import type {
  Resolution,
  ResolveOptions,
  Resolver,
  SkillListing,
  SkillSource,
  SourceTier,
} from "./types.ts";
import type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";

export type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";

/**
 * The default sources for this platform, highest priority first. On Deno and
 * Node: the user folder, the community folder, the MCP servers registered in
 * `config.toml` (one group, asked in parallel), then the built-ins (unless turned off:
 * `builtin: false`, `SKILLMUX_NO_BUILTIN=1` or `[skills] builtin = false` in `config.toml`).
 * Folder skills (`x/SKILL.md`) come with their files, read from disk byte for byte. In a
 * browser: user skills in IndexedDB (keys `skills/<name>.md`), the MCP servers
 * registered there (key `config.toml`), then the built-ins.
 *
 * @example Add an MCP or team source between community and built-ins
 * ```ts
 * import { createDefaultSources, createResolver } from "@skillmux/core";
 * const sources = await createDefaultSources();
 * const resolver = createResolver({ sources });
 * console.log(sources.flat().map((s) => s.label)); // ["user", "community", "builtin"] with no MCP servers
 * console.log((await resolver.resolve("samtools")).source);
 * ```
 */
export async function createDefaultSources(
  options: DefaultSourcesOptions = {},
): Promise<SourceTier[]> {
  if (hasNodeBuiltins()) {
    const fs = await import("./_fs_defaults.ts");
    const builtin = await fs.builtinEnabled(options);
    return [...await fs.fsSources(options), ...(builtin ? [createBuiltinSource()] : [])];
  }
  if (typeof indexedDB !== "undefined") {
    const { createIndexedDbStorage } = await import("../storage/indexed_db.ts");
    const storage = createIndexedDbStorage({ dbName: options.dbName });
    const mcp = await createMcpSkillSources(createServerRegistry({ storage }));
    return [
      createStorageSource({ label: "user", storage, prefix: "skills/" }),
      ...(mcp.length > 0 ? [mcp] : []),
      ...(options.builtin === false ? [] : [createBuiltinSource()]),
    ];
  }
  return options.builtin === false ? [] : [createBuiltinSource()];
}

/**
 * The folders the zero-config resolver reads on Deno and Node, after options
 * and environment variables; `undefined` in a browser.
 *
 * @example
 * ```ts
 * import { defaultSkillFolders } from "@skillmux/core/resolve";
 * console.log(await defaultSkillFolders({ env: { HOME: "/home/ada" } }));
 * // { user: "/home/ada/.config/skillmux/skills", community: "/home/ada/.local/share/skillmux/skills" }
 * ```
 */
export async function defaultSkillFolders(
  options: DefaultSourcesOptions = {},
): Promise<DefaultSkillFolders | undefined> {
  return hasNodeBuiltins() ? (await import("./_fs_defaults.ts")).skillFolders(options) : undefined;
}

/**
 * Whether the zero-config resolver puts the built-in skills in its chain. On Deno and Node:
 * `options.builtin`, else not when `SKILLMUX_NO_BUILTIN` says so, else `[skills] builtin` of
 * `config.toml`, else on. In a browser: `options.builtin`, else on.
 *
 * @example
 * ```ts
 * import { defaultBuiltinEnabled } from "./default_sources.ts";
 * console.log(await defaultBuiltinEnabled({ builtin: false })); // false
 * ```
 */
export async function defaultBuiltinEnabled(options: DefaultSourcesOptions = {}): Promise<boolean> {
  if (hasNodeBuiltins()) return (await import("./_fs_defaults.ts")).builtinEnabled(options);
  return options.builtin !== false;
}

/** Warm resolvers by their options (most recent last); the oldest is closed past the cap. */
const warm = new Map<string, Promise<Resolver>>();
const MAX_WARM = 4;

async function close(resolver: Promise<Resolver>): Promise<void> {
  const { sources } = await resolver.catch(() => ({ sources: [] as SkillSource[] }));
  await Promise.all(
    sources.map((source) =>
      (source as Partial<{ dispose(): Promise<void> }>).dispose?.().catch(() => {})
    ),
  );
}

function resolverFor(options: DefaultSourcesOptions): Promise<Resolver> {
  const key = JSON.stringify(Object.entries(options).filter(([, v]) => v !== undefined).sort());
  let resolver = warm.get(key);
  if (resolver === undefined) {
    resolver = createDefaultSources(options).then((sources) => createResolver({ sources }));
    resolver.catch(() => warm.delete(key));
  }
  warm.delete(key);
  warm.set(key, resolver);
  if (warm.size > MAX_WARM) {
    const [oldest, dropped] = warm.entries().next().value!;
    warm.delete(oldest);
    void close(dropped);
  }
  return resolver;
}

/**
 * Close the connections of the resolvers `resolveSkill` and `listSkills` keep warm (one per set
 * of options, at most four; the oldest is closed when a fifth is needed). The next call opens
 * what it needs again.
 *
 * @example
 * ```ts
 * import { closeSkillResolvers, resolveSkill } from "@skillmux/core";
 * await resolveSkill("samtools");
 * await closeSkillResolvers();
 * ```
 */
export async function closeSkillResolvers(): Promise<void> {
  const all = [...warm.values()];
  warm.clear();
  await Promise.all(all.map(close));
}

/**
 * Resolve a skill with zero configuration: user > community > registered MCP
 * servers > built-in on Deno and Node, IndexedDB > MCP > built-in in a browser. The answer says where the
 * skill came from. Throws `SkillNotFoundError` when no source has it.
 *
 * On Deno, grant `--allow-read` for the folders and `--allow-env` (the folders
 * come from the environment). A source whose permission is missing is skipped
 * with a diagnostic naming the flag to add; the built-ins answer with no flag.
 *
 * @example
 * ```ts
 * import { resolveSkill } from "@skillmux/core";
 * const hit = await resolveSkill("samtools");
 * console.log(hit.source, hit.skill.description);
 * ```
 */
export async function resolveSkill(
  name: string,
  options: ResolveOptions & DefaultSourcesOptions = {},
): Promise<Resolution> {
  const { signal, deadlineMs, ...sourceOptions } = options;
  return await (await resolverFor(sourceOptions)).resolve(name, { signal, deadlineMs });
}

/**
 * List every skill the zero-config resolver can see, once each, with its
 * winning source and the sources it shadows.
 *
 * @example
 * ```ts
 * import { listSkills } from "@skillmux/core";
 * const { skills } = await listSkills();
 * for (const s of skills) console.log(s.name, s.source, s.shadows);
 * ```
 */
export async function listSkills(
  options: ResolveOptions & DefaultSourcesOptions = {},
): Promise<SkillListing> {
  const { signal, deadlineMs, ...sourceOptions } = options;
  return await (await resolverFor(sourceOptions)).list({ signal, deadlineMs });
}
