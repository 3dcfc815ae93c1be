// Private: what the listing needs of every built-in skill of a table (name, description, digest,
// tags, keywords, tasks, location, allowed-tools). builtin_source.ts computes it for a table it is
// given; scripts/gen_builtin.ts writes it for the package's table to _builtin_summaries.json, so a
// listing of the package's built-ins loads that small file instead of every text.

import type { SkillSummary } from "./types.ts";

/** The package's built-in names and their summaries, as _builtin_summaries.json holds them. */
export interface BuiltinSummaryTable {
  /** Every built-in skill name, sorted (a skill that does not parse is listed, not summarised). */
  names: string[];
  /** The summaries of the skills that parse, sorted by name. */
  summaries: SkillSummary[];
}

/** The summaries of `skills`, sorted by name; a skill that does not parse is left out. */
export async function summarizeBuiltins(
  skills: Readonly<Record<string, string>>,
): Promise<SkillSummary[]> {
  const { safeParseSkill } = await import("../skill/parse.ts");
  const out: SkillSummary[] = [];
  for (const name of Object.keys(skills).sort()) {
    const parsed = await safeParseSkill(skills[name], { name });
    if (!parsed.success) continue; // read (and reported) the usual way
    const { skill } = parsed;
    const tasks = skill.examples.map((e) => e.task);
    out.push({
      name,
      description: skill.description,
      digest: skill.digest,
      tags: skill.tags,
      keywords: [...skill.concepts, ...tasks],
      tasks,
      location: `builtin:skills/${name}.md`,
      allowedTools: skill.allowedTools,
    });
  }
  return out;
}

/** Whether `value` has the shape of _builtin_summaries.json (names and summaries arrays). */
export function isSummaryTable(value: unknown): value is BuiltinSummaryTable {
  const v = value as Partial<BuiltinSummaryTable> | null;
  return typeof v === "object" && v !== null && Array.isArray(v.names) &&
    v.names.every((n) => typeof n === "string") && Array.isArray(v.summaries);
}
