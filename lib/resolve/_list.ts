// Private: list every source in parallel and merge by priority.

import { mapLimit } from "../_pool.ts";
import { safeNormalizeSkillName } from "../skill/name.ts";
import { askOne, callSource, type EntryParser, type SourceHit } from "./_query.ts";
import type {
  ListedSkill,
  ResolveDiagnostic,
  SkillListing,
  SkillSource,
  SkillSummary,
} from "./types.ts";

/** How many entries of one source are read and parsed at once while listing. */
const PER_SOURCE_CONCURRENCY = 16;

/** A summary as checked: every list present (empty when the source gave none). */
type CheckedSummary = SkillSummary & Required<Pick<SkillSummary, ListFields>>;
type ListFields = "tags" | "keywords" | "tasks" | "allowedTools";
/** A skill as one source lists it: read and parsed, or summarised by the source's listing. */
type Listed = { read: SourceHit } | { summary: CheckedSummary; source: string };

interface SourceListing {
  hits: Map<string, Listed>;
  diagnostics: ResolveDiagnostic[];
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const strings = (value: unknown, max: number): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string").slice(0, max).map((v) =>
      v.slice(0, 1_024)
    )
    : [];

/**
 * The usable summaries of `source` by name; one that is malformed, or whose name is listed twice,
 * is left out (its skill is read instead). A failing `summaries` is a listing without summaries.
 */
/**
 * Checked summaries by the array a source returned: a source that hands out the same frozen
 * listing every time (the built-ins, parsed once per process) is checked once, and its rows keep
 * their identity (the catalog makes each row's entry once). A listing that is not frozen could
 * change in place, and is checked on every call.
 */
const checked = new WeakMap<object, Map<string, CheckedSummary>>();

async function summariesOf(
  source: SkillSource,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Map<string, CheckedSummary>> {
  const out = new Map<string, CheckedSummary>();
  if (source.summaries === undefined) return out;
  const got = await callSource(source, signal, timeoutMs, undefined, (s) => {
    return source.summaries!({ signal: s });
  });
  if (!got.ok || !Array.isArray(got.value)) return out;
  const known = checked.get(got.value);
  if (known) return known;
  if (Object.isFrozen(got.value)) checked.set(got.value, out);
  const twice = new Set<string>();
  for (const raw of got.value) {
    const name = typeof raw?.name === "string" ? safeNormalizeSkillName(raw.name) : undefined;
    if (
      name === undefined || typeof raw.description !== "string" ||
      raw.description.trim() === "" || typeof raw.digest !== "string" || !DIGEST.test(raw.digest)
    ) continue;
    if (out.has(name)) twice.add(name);
    out.set(name, {
      name,
      description: raw.description,
      digest: raw.digest,
      tags: Object.freeze(strings(raw.tags, 64)) as string[],
      keywords: Object.freeze(strings(raw.keywords, 256)) as string[],
      tasks: Object.freeze(strings(raw.tasks, 128)) as string[],
      ...(typeof raw.location === "string" ? { location: raw.location } : {}),
      allowedTools: Object.freeze(strings(raw.allowedTools, 64)) as string[],
      remote: raw.remote === true,
    });
  }
  for (const name of twice) out.delete(name);
  return out;
}

async function listOne(
  source: SkillSource,
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
): Promise<SourceListing> {
  const diagnostics: ResolveDiagnostic[] = [];
  const hits = new Map<string, Listed>();
  const [summaries, listed] = await Promise.all([
    summariesOf(source, signal, timeoutMs),
    callSource(
      source,
      signal,
      timeoutMs,
      undefined,
      (s) => source.list({ signal: s }),
    ),
  ]);
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
  const unread: string[] = [];
  for (const name of [...names].sort()) {
    const summary = summaries.get(name);
    if (summary) hits.set(name, { summary, source: source.label });
    else unread.push(name);
  }
  // Reads finish in any order; their diagnostics are kept in name order all the same.
  const answers = await mapLimit(
    unread,
    PER_SOURCE_CONCURRENCY,
    (name) =>
      signal.aborted
        ? Promise.resolve(undefined)
        : askOne(source, name, signal, timeoutMs, parse, true),
  );
  answers.forEach((answer, i) => {
    if (answer?.hit) hits.set(unread[i], { read: answer.hit });
    if (answer) diagnostics.push(...answer.diagnostics);
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
      ...row(winner.hit),
      name,
      source: winner.source.label,
      shadows: shadowed.map((o) => o.source.label),
    });
  }
  return { skills, diagnostics: listings.flatMap((l) => l.diagnostics) };
}

/** The fields of a listing row that come from the winning source's copy. */
function row(listed: Listed): Omit<ListedSkill, "name" | "source" | "shadows"> {
  if ("read" in listed) {
    const { skill, location, requestedAllowedTools } = listed.read;
    const tasks = skill.examples.map((e) => e.task);
    return {
      description: skill.description,
      location,
      digest: skill.digest,
      tags: skill.tags,
      keywords: [...skill.concepts, ...tasks],
      tasks,
      allowedTools: skill.allowedTools,
      skill,
      ...(requestedAllowedTools ? { requestedAllowedTools } : {}),
    };
  }
  const { summary } = listed;
  return {
    description: summary.description,
    location: summary.location,
    digest: summary.digest,
    tags: summary.tags,
    keywords: summary.keywords,
    tasks: summary.tasks,
    allowedTools: summary.remote ? [] : summary.allowedTools,
    ...(summary.remote ? { requestedAllowedTools: summary.allowedTools } : {}),
  };
}
