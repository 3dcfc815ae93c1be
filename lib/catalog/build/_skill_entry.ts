// Private: the catalog entry of a skill (a listing row's facts or a parsed skill's), trusted or
// fenced by its source, made once per process for a listing row seen before.

import { isRemoteProvenance } from "../../resolve/provenance.ts";
import type { Skill } from "../../skill/types.ts";
import { outlineOf } from "./_outline.ts";
import { DESCRIPTION_MAX, type RawEntry, WORD_MAX } from "./_raw_entry.ts";
import { addressesModel, cleanLine } from "../../_text_clean.ts";

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

/**
 * Turns a resolver's skill into an entry as `collect` (`_collect.ts`) does: trusted or fenced by its
 * source, and tied to its server's endpoint when a registered server serves it.
 */
export type SkillMaker = (
  facts: SkillFacts,
  source: string,
  location?: string,
  requested?: readonly string[],
) => RawEntry;
