/**
 * The built-in skills that ship inside the library.
 *
 * @module
 */

import type { SkillSource, SourceEntry } from "./types.ts";

type BuiltinTable = Readonly<Record<string, string>>;

let table: Promise<BuiltinTable> | undefined;

/** Load the generated table on first use, so bundles fetch it only when resolution gets here. */
function loadTable(): Promise<BuiltinTable> {
  table ??= import("./_builtin_skills.ts").then((m) => m.BUILTIN_SKILLS);
  return table;
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
  };
}
