// Private: list every source in parallel and merge by priority.

import { mapLimit } from "../_pool.ts";
import { safeNormalizeSkillName } from "../skill/name.ts";
import { askOne, callSource, type EntryParser, type SourceHit } from "./_query.ts";
import type { ListedSkill, ResolveDiagnostic, SkillListing, SkillSource } from "./types.ts";

/** How many entries of one source are read and parsed at once while listing. */
const PER_SOURCE_CONCURRENCY = 16;

interface SourceListing {
  hits: Map<string, SourceHit>;
  diagnostics: ResolveDiagnostic[];
}

async function listOne(
  source: SkillSource,
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
): Promise<SourceListing> {
  const diagnostics: ResolveDiagnostic[] = [];
  const hits = new Map<string, SourceHit>();
  const listed = await callSource(
    source,
    signal,
    timeoutMs,
    undefined,
    (s) => source.list({ signal: s }),
  );
  if (!listed.ok) return { hits, diagnostics: [listed.diagnostic] };
  const names = new Set<string>();
  for (const listedName of new Set(listed.value)) {
    const name = safeNormalizeSkillName(listedName);
    if (name !== undefined) names.add(name);
    else {
      diagnostics.push({
        source: source.label,
        name: listedName,
        problem: "invalid",
        message: `${JSON.stringify(listedName)} is not a valid skill name; skipped`,
      });
    }
  }
  await mapLimit([...names].sort(), PER_SOURCE_CONCURRENCY, async (name) => {
    if (signal.aborted) return;
    const answer = await askOne(source, name, signal, timeoutMs, parse);
    if (answer.hit) hits.set(name, answer.hit);
    diagnostics.push(...answer.diagnostics);
  });
  return { hits, diagnostics };
}

/** Every skill once, with its winning source and the lower sources it shadows. */
export async function listSources(
  sources: readonly SkillSource[],
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
): Promise<SkillListing> {
  const listings = await Promise.all(sources.map((s) => listOne(s, signal, timeoutMs, parse)));
  const names = new Set<string>();
  for (const listing of listings) for (const name of listing.hits.keys()) names.add(name);
  const skills: ListedSkill[] = [];
  for (const name of [...names].sort()) {
    const owners = listings.flatMap((l, i) => {
      const hit = l.hits.get(name);
      return hit ? [{ source: sources[i], hit }] : [];
    });
    const [winner, ...shadowed] = owners;
    skills.push({
      name,
      description: winner.hit.skill.description,
      source: winner.source.label,
      location: winner.hit.location,
      shadows: shadowed.map((o) => o.source.label),
      skill: winner.hit.skill,
      ...(winner.hit.requestedAllowedTools
        ? { requestedAllowedTools: winner.hit.requestedAllowedTools }
        : {}),
    });
  }
  return { skills, diagnostics: listings.flatMap((l) => l.diagnostics) };
}
