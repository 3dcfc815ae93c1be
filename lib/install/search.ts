/**
 * Search skills by keywords across a registry index and the local sources.
 *
 * @module
 */

import { createKeywordIndex } from "../catalog/search/keyword.ts";
import type { KeywordDocument } from "../catalog/model/types.ts";
import type { Resolver } from "../resolve/types.ts";
import { fetchRegistryIndex } from "./registry.ts";
import type { InstallerOptions } from "./types.ts";

/** One search hit. */
export interface SkillSearchHit {
  /** The skill's name. */
  name: string;
  /** What the skill is for. */
  description: string;
  /** `registry`, or the local source that has it (`user`, `community`, `mcp:<server>`, `builtin`). */
  source: string;
  /** The registry's version, for registry hits. */
  version?: string;
  /** BM25+ score of the library's keyword ranker; higher is better, comparable within one search. */
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
  /** The hits, best first. */
  hits: SkillSearchHit[];
  /** Sources that failed (the registry unreachable, a local source down), as sentences. */
  diagnostics: string[];
}

/**
 * Rank the skills of the registry index and of the local sources for
 * `query` with the library's one keyword ranker (BM25+ over name, tags,
 * description, and for local skills their concepts and example tasks); skills
 * that match no word are left out, ties sort by name. A skill in both places is listed from each, so the versions can be
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
 * const { hits } = await searchSkills("sort a bam by coordinate", { resolver });
 * console.log(hits[0]?.name, hits[0]?.source); // "samtools" "builtin"
 * ```
 */
export async function searchSkills(
  query: string,
  options: SearchSkillsOptions = {},
): Promise<SkillSearchResult> {
  const found: Omit<SkillSearchHit, "score">[] = [];
  const documents: KeywordDocument[] = [];
  const diagnostics: string[] = [];
  const add = (
    hit: Omit<SkillSearchHit, "score">,
    more: Pick<KeywordDocument, "tags" | "keywords"> = {},
  ) => {
    documents.push({
      id: String(found.length),
      name: hit.name,
      description: hit.description,
      ...more,
    });
    found.push(hit);
  };
  const [index, local] = await Promise.allSettled([
    options.registry === undefined ? Promise.resolve(undefined) : fetchRegistryIndex(options),
    options.resolver?.list({ signal: options.signal }),
  ]);
  if (index.status === "rejected") diagnostics.push(`registry: ${(index.reason as Error).message}`);
  else if (index.value !== undefined) {
    for (const entry of index.value.skills.values()) {
      const { name, description, version } = entry;
      add({ name, description, source: "registry", ...(version ? { version } : {}) });
    }
    for (const problem of index.value.problems) diagnostics.push(`registry: ${problem.message}`);
  }
  if (local.status === "rejected") diagnostics.push(`local: ${(local.reason as Error).message}`);
  else if (local.value !== undefined) {
    for (const { name, description, source, tags, keywords } of local.value.skills) {
      add({ name, description, source }, { tags, keywords });
    }
    for (const d of local.value.diagnostics) diagnostics.push(`${d.source}: ${d.message}`);
  }
  const ranked = (await createKeywordIndex(documents)).search(query, { limit: documents.length });
  const hits = ranked.map(({ id, score }) => ({ ...found[Number(id)], score }));
  hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return { hits: hits.slice(0, options.limit ?? 20), diagnostics };
}
