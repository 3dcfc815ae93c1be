/**
 * The built-in skills that ship inside the library.
 *
 * @module
 */

import type { SkillSource, SkillSummary, SourceEntry } from "./types.ts";

type BuiltinTable = Readonly<Record<string, string>>;

let table: Promise<BuiltinTable> | undefined;

/** Load the generated table on first use, so bundles fetch it only when resolution gets here. */
function loadTable(): Promise<BuiltinTable> {
  table ??= import("./_builtin_skills.ts").then((m) => m.BUILTIN_SKILLS);
  return table;
}

let summaries: Promise<SkillSummary[]> | undefined;

/**
 * What the listing needs of every built-in skill, parsed once per process (every catalog and
 * resolver of the process shares it); a skill's body is parsed again only when it is resolved.
 */
function loadSummaries(): Promise<SkillSummary[]> {
  summaries ??= Promise.all([loadTable(), import("../skill/parse.ts")]).then(
    async ([skills, { safeParseSkill }]) => {
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
    },
  );
  summaries.catch(() => (summaries = undefined));
  return summaries;
}

/**
 * The names of the built-in skills, sorted.
 *
 * @example
 * ```ts
 * import { builtinSkillNames } from "@skillmux/core";
 * console.log((await builtinSkillNames()).includes("samtools")); // true
 * ```
 */
export async function builtinSkillNames(): Promise<string[]> {
  return Object.keys(await loadTable()).sort();
}

/**
 * A source over the built-in skills (label `builtin`). They are compiled into
 * the library, so Deno, Node, `jsr:` and browser users get them with no file
 * access; the table loads lazily on the first lookup.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createResolver } from "@skillmux/core";
 * const hit = await createResolver({ sources: [createBuiltinSource()] }).resolve("samtools");
 * console.log(hit.source, hit.skill.examples.length); // "builtin" 10
 * ```
 */
export function createBuiltinSource(): SkillSource {
  return {
    label: "builtin",
    async get(name: string): Promise<SourceEntry | undefined> {
      const skills = await loadTable();
      const text = Object.hasOwn(skills, name) ? skills[name] : undefined;
      return text === undefined
        ? undefined
        : { text, format: "markdown", location: `builtin:skills/${name}.md` };
    },
    async list(): Promise<string[]> {
      return await builtinSkillNames();
    },
    async peek(name: string): Promise<boolean> {
      return Object.hasOwn(await loadTable(), name);
    },
    summaries: loadSummaries,
  };
}
