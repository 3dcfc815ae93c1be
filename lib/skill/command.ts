/**
 * The program an example runs: the skill's `command` (default: the skill
 * name), or the example's own `**Command:**` for a companion program.
 *
 * @module
 */

import type { Skill, SkillExample } from "./types.ts";

/**
 * The program `example` runs, as typed at a shell: its own `command` (a
 * companion such as `hisat2-build`), else the skill's `command`, else the
 * skill name.
 *
 * @param skill The skill the example belongs to.
 * @param example One of its examples.
 * @returns The program, e.g. `STAR` or `java -jar picard.jar`.
 *
 * @example The program of a companion example
 * ```ts
 * import { parseSkill } from "@skillmux/core/skill";
 * import { exampleProgram } from "@skillmux/core/skill";
 * const { skill } = await parseSkill(
 *   "---\nname: hisat2\ndescription: Align reads. Use when mapping RNA-seq.\n---\n" +
 *     "## Examples\n### Build an index\n**Command:** `hisat2-build`\n**Args:** `genome.fa idx`\n" +
 *     "**Explanation:** Writes idx.1.ht2 to idx.8.ht2.\n",
 * );
 * console.log(exampleProgram(skill, skill.examples[0])); // "hisat2-build"
 * ```
 */
export function exampleProgram(
  skill: Pick<Skill, "name" | "command">,
  example: SkillExample,
): string {
  return example.command ?? skill.command ?? skill.name;
}

/**
 * The full command line of `example`: its program ({@linkcode exampleProgram})
 * followed by its args. This is what a caller runs; the args alone never
 * start with the program.
 *
 * @param skill The skill the example belongs to.
 * @param example One of its examples.
 * @returns E.g. `STAR --runThreadN 8 --genomeDir star_index`.
 *
 * @example Print every example as a command line
 * ```ts
 * import { parseSkill } from "@skillmux/core/skill";
 * import { exampleCommandLine } from "@skillmux/core/skill";
 * const { skill } = await parseSkill(
 *   "---\nname: star\ncommand: STAR\ndescription: Align RNA-seq. Use when mapping reads.\n---\n" +
 *     "## Examples\n### Show the version\n**Args:** `--version`\n**Explanation:** Prints it.\n",
 * );
 * for (const example of skill.examples) console.log(exampleCommandLine(skill, example));
 * // STAR --version
 * ```
 */
export function exampleCommandLine(
  skill: Pick<Skill, "name" | "command">,
  example: SkillExample,
): string {
  const args = example.args.trim();
  const program = exampleProgram(skill, example);
  return args === "" ? program : `${program} ${args}`;
}
