/**
 * Search skills by keywords across a registry index and the local sources.
 *
 * @module
 */

import type { Resolver } from "../resolve/types.ts";
import { fetchRegistryIndex } from "./registry.ts";
import type { InstallerOptions } from "./types.ts";

/** One search hit. */
export interface SkillSearchHit {
  name: string;
  description: string;
  /** `registry`, or the local source that has it (`user`, `community`, `mcp:<server>`, `builtin`). */
  source: string;
  /** The registry's version, for registry hits. */
  version?: string;
  /** Higher is better: name matches count most, then description words. */
  score: number;
}

/** Options of {@linkcode searchSkills}. */
export interface SearchSkillsOptions extends Partial<InstallerOptions> {
  /** The local sources to search too (e.g. a resolver over the default sources). */
  resolver?: Resolver;
  /** Most hits. Default 20. */
  limit?: number;
}

/** What {@linkcode searchSkills} found, and what it could not search. */
export interface SkillSearchResult {
  hits: SkillSearchHit[];
  /** Sources that failed (the registry unreachable, a local source down), as sentences. */
  diagnostics: string[];
}

const words = (text: string): string[] =>
  text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "");

function score(query: string[], name: string, description: string): number {
  const nameWords = words(name);
  const descriptionWords = words(description);
  let total = 0;
  for (const word of query) {
    if (name === word || nameWords.includes(word)) total += 10;
    else if (name.includes(word)) total += 6;
    if (descriptionWords.includes(word)) total += 2;
    else if (descriptionWords.some((w) => w.startsWith(word))) total += 1;
  }
  return total;
}

/**
 * Rank the skills of the registry index and of the local sources for
 * `query`. Each word scores in the name (10 exact, 6 part) and the
 * description (2 word, 1 prefix); skills scoring 0 are left out, ties sort by
 * name. A skill in both places is listed from each, so the versions can be
 * compared. A source that fails is reported in `diagnostics`, not thrown.
 *
 * @param query Keywords, e.g. `taxonomic classification`.
 * @param options `registry` and HTTP options for the index, `resolver` for local sources, `limit`.
 * @returns The ranked hits and the diagnostics.
 *
 * @example Search the built-ins and a registry
 * ```ts
 * import { createBuiltinSource, createResolver } from "@skillmux/core";
 * import { searchSkills } from "@skillmux/core/install";
 * const resolver = createResolver({ sources: [createBuiltinSource()] });
 * const { hits } = await searchSkills("sort bam", { resolver });
 * console.log(hits[0]?.name, hits[0]?.source); // "samtools" "builtin"
 * ```
 */
export async function searchSkills(
  query: string,
  options: SearchSkillsOptions = {},
): Promise<SkillSearchResult> {
  const wanted = words(query);
  const hits: SkillSearchHit[] = [];
  const diagnostics: string[] = [];
  const add = (name: string, description: string, source: string, version?: string) => {
    const value = score(wanted, name, description);
    if (value > 0) {
      hits.push({ name, description, source, ...(version ? { version } : {}), score: value });
    }
  };
  const [index, local] = await Promise.allSettled([
    options.registry === undefined ? Promise.resolve(undefined) : fetchRegistryIndex(options),
    options.resolver?.list({ signal: options.signal }),
  ]);
  if (index.status === "rejected") diagnostics.push(`registry: ${(index.reason as Error).message}`);
  else if (index.value !== undefined) {
    for (const entry of index.value.skills.values()) {
      add(entry.name, entry.description, "registry", entry.version);
    }
    for (const problem of index.value.problems) diagnostics.push(`registry: ${problem.message}`);
  }
  if (local.status === "rejected") diagnostics.push(`local: ${(local.reason as Error).message}`);
  else if (local.value !== undefined) {
    for (const skill of local.value.skills) add(skill.name, skill.description, skill.source);
    for (const d of local.value.diagnostics) diagnostics.push(`${d.source}: ${d.message}`);
  }
  hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return { hits: hits.slice(0, options.limit ?? 20), diagnostics };
}
