// Private: ask one source under a timeout and turn its answer into a parsed skill or a diagnostic.

import { isTimeoutError, raceSignal, scopedSignal } from "../_abort.ts";
import { deniedMessage } from "../_permission.ts";
import { isSkillParseError } from "../skill/errors.ts";
import { parseSkill } from "../skill/parse.ts";
import { displayableSkill } from "../skill/displayable.ts";
import type { Skill } from "../skill/types.ts";
import type { SkillFileInfo } from "../skill/files.ts";
import type {
  ResolveDiagnostic,
  ResolverParseOptions,
  SkillSource,
  SourceCallOptions,
  SourceEntry,
} from "./types.ts";

/** A parsed entry of one source. */
export interface SourceHit {
  /** Label of the source that had it. */
  source: string;
  skill: Skill;
  location?: string;
  /** A remote skill's `allowed-tools`, kept apart. */
  requestedAllowedTools?: string[];
  diagnostics: ResolveDiagnostic[];
  /** The skill document exactly as the source gave it. */
  text: string;
  /** A folder skill's folder, files and reader (attached after parsing: never cached). */
  folder?: string;
  files?: SkillFileInfo[];
  readFile?: (path: string, options: SourceCallOptions) => Promise<Uint8Array>;
}

/** Run `call` against `source` with its timeout; failures become a diagnostic. */
export async function callSource<T>(
  source: SkillSource,
  outer: AbortSignal,
  defaultTimeoutMs: number,
  name: string | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; diagnostic: ResolveDiagnostic }> {
  const ms = source.timeoutMs ?? defaultTimeoutMs;
  const scoped = scopedSignal(
    [outer],
    ms,
    `source "${source.label}" did not answer within ${ms} ms`,
  );
  try {
    return { ok: true, value: await raceSignal(call(scoped.signal), scoped.signal) };
  } catch (error) {
    const problem = isTimeoutError(error) ? "timeout" : outer.aborted ? "aborted" : "error";
    const reason = deniedMessage(error);
    return { ok: false, diagnostic: { source: source.label, name, problem, message: reason } };
  } finally {
    scoped.dispose();
  }
}

/** Parse `entry` from `source` as skill `name`; invalid content becomes a diagnostic. */
export async function parseEntry(
  source: SkillSource,
  name: string,
  entry: SourceEntry,
  parse: ResolverParseOptions,
): Promise<SourceHit | ResolveDiagnostic> {
  try {
    const { skill, diagnostics } = await parseSkill(entry.text, {
      ...parse,
      name,
      format: entry.format ?? "auto",
      source: entry.location ?? source.label,
    });
    if (skill.name !== name) {
      return invalid(source, name, `its front matter names it "${skill.name}", not "${name}"`);
    }
    const requested = entry.remote ? skill.allowedTools : undefined;
    return {
      source: source.label,
      skill: entry.remote ? displayableSkill({ ...skill, allowedTools: [] }) : skill,
      ...(requested === undefined ? {} : { requestedAllowedTools: requested }),
      location: entry.location,
      text: entry.text,
      diagnostics: diagnostics.map((d) => ({
        source: source.label,
        name,
        problem: "warning",
        message: d.message,
        details: [d],
      })),
    };
  } catch (error) {
    if (!isSkillParseError(error)) throw error;
    return { ...invalid(source, name, error.message), details: error.diagnostics };
  }
}

function invalid(source: SkillSource, name: string, message: string): ResolveDiagnostic {
  return { source: source.label, name, problem: "invalid", message };
}

/** Whether a {@linkcode parseEntry} answer is a usable hit. */
export function isHit(value: SourceHit | ResolveDiagnostic): value is SourceHit {
  return "skill" in value;
}

/** The outcome of asking one tier for one name. */
export interface TierAnswer {
  hit?: SourceHit;
  diagnostics: ResolveDiagnostic[];
}

/** Turns a source's entry into a parsed hit or a diagnostic (see `_parse_cache.ts`). */
export type EntryParser = (
  source: SkillSource,
  name: string,
  entry: SourceEntry,
) => Promise<SourceHit | ResolveDiagnostic>;

/** Ask one source for `name` and parse its answer. */
export async function askOne(
  source: SkillSource,
  name: string,
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
  withoutFiles = false,
): Promise<TierAnswer> {
  const got = await callSource(
    source,
    signal,
    timeoutMs,
    name,
    (s) => source.get(name, withoutFiles ? { signal: s, withoutFiles } : { signal: s }),
  );
  if (!got.ok) return { diagnostics: [got.diagnostic] };
  if (got.value === undefined) return { diagnostics: [] };
  // A source is code of its own: an answer without text is its fault, told as such.
  if (typeof (got.value as Partial<SourceEntry> | null)?.text !== "string") {
    return { diagnostics: [invalid(source, name, "the source answered without text")] };
  }
  const parsed = await parse(source, name, got.value);
  if (!isHit(parsed)) return { diagnostics: [parsed] };
  return { hit: withFolder(parsed, got.value, source, name), diagnostics: [] };
}

/** `hit` with the folder, files and reader of `entry` (fresh on every read, unlike the parse). */
function withFolder(
  hit: SourceHit,
  entry: SourceEntry,
  source: SkillSource,
  name: string,
): SourceHit {
  const files = Array.isArray(entry.files) ? entry.files : undefined;
  const notes = Array.isArray(entry.notes) ? entry.notes.filter((n) => typeof n === "string") : [];
  if (entry.folder === undefined && files === undefined && notes.length === 0) return hit;
  return {
    ...hit,
    ...(typeof entry.folder === "string" ? { folder: entry.folder } : {}),
    ...(files === undefined ? {} : { files }),
    ...(typeof entry.readFile === "function" ? { readFile: entry.readFile.bind(entry) } : {}),
    diagnostics: [
      ...hit.diagnostics,
      ...notes.map((message): ResolveDiagnostic => ({
        source: source.label,
        name,
        problem: "warning",
        message: `Skill "${name}": ${message}`,
      })),
    ],
  };
}

/**
 * What each member's cached listing says (`peek` with `cachedOnly`; `undefined`: cannot tell, or
 * no `peek`); failures say `undefined`.
 */
export async function peekAll(
  sources: readonly SkillSource[],
  name: string,
  signal: AbortSignal,
  timeoutMs: number,
  listedOnly = false,
): Promise<Array<boolean | undefined>> {
  return await Promise.all(sources.map(async (source) => {
    if (source.peek === undefined) return undefined;
    const got = await callSource(
      source,
      signal,
      timeoutMs,
      name,
      (s) =>
        source.peek!(name, { signal: s, cachedOnly: true, ...(listedOnly ? { listedOnly } : {}) }),
    );
    return got.ok ? got.value : undefined;
  }));
}

/**
 * Ask a tier: one source, or a group asked in parallel whose answer is the
 * first valid hit in group order. Members whose cached `peek` says they lack the name are skipped,
 * and so is every member after the first whose `peek` says it has it; members above that holder
 * are read only when they cannot tell without a cached listing (a listed copy beats a template
 * guess, so a warm hit costs one read). Once a hit is known, the members after it are cancelled.
 */
export async function askTier(
  tier: readonly SkillSource[],
  name: string,
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
): Promise<TierAnswer> {
  if (tier.length === 1) return await askOne(tier[0], name, signal, timeoutMs, parse);
  if (tier.some((source) => source.peek !== undefined)) {
    // Cached listings only: a cold member is asked directly (it lists and reads at once).
    const says = await peekAll(tier, name, signal, timeoutMs);
    const holder = says.indexOf(true);
    // A member's listing names the skill: members above it whose cached listing does not name it
    // are not read on a guess (their skill://{name} template), so a warm hit costs one read.
    const listed = holder === -1
      ? says
      : await peekAll(tier.slice(0, holder), name, signal, timeoutMs, true);
    const guessOnly = (i: number) => i < holder && says[i] === undefined && listed[i] === false;
    const open = tier.filter((_, i) => says[i] !== false && !guessOnly(i));
    const cut = holder === -1 ? open.length : open.indexOf(tier[holder]) + 1;
    const first = await askGroup(open.slice(0, cut), name, signal, timeoutMs, parse);
    if (first.hit || (cut === open.length && !tier.some((_, i) => guessOnly(i)))) return first;
    // The holder's copy was unusable: the others (guesses included) get their turn, in order.
    const asked = new Set(open.slice(0, cut));
    const others = tier.filter((s, i) => says[i] !== false && !asked.has(s));
    const rest = await askGroup(others, name, signal, timeoutMs, parse);
    return { hit: rest.hit, diagnostics: [...first.diagnostics, ...rest.diagnostics] };
  }
  return await askGroup(tier, name, signal, timeoutMs, parse);
}

async function askGroup(
  tier: readonly SkillSource[],
  name: string,
  signal: AbortSignal,
  timeoutMs: number,
  parse: EntryParser,
): Promise<TierAnswer> {
  if (tier.length === 0) return { diagnostics: [] };
  if (tier.length === 1) return await askOne(tier[0], name, signal, timeoutMs, parse);
  const cancel = new AbortController();
  const group = scopedSignal([signal, cancel.signal]);
  try {
    const pending = tier.map((source) => askOne(source, name, group.signal, timeoutMs, parse));
    const diagnostics: ResolveDiagnostic[] = [];
    for (const answer of pending) {
      const { hit, diagnostics: found } = await answer;
      diagnostics.push(...found);
      if (hit) return { hit, diagnostics };
    }
    return { diagnostics };
  } finally {
    cancel.abort(new Error("a member earlier in the group answered"));
    group.dispose();
  }
}
