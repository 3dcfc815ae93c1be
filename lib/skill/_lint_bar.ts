// Private: skillmux's quality bar for Concepts/Pitfalls/Examples skills (lint.ts applies it to
// skills of that format, or on request): enough concepts, pitfalls and worked examples, a
// description of 20-1024 characters, and example args that leave the program out.

import type { Skill } from "./types.ts";
import type { LintSkillOptions } from "./_lint_options.ts";
import { quote } from "./_location.ts";
import { programNames } from "./_command.ts";

/** Adds one finding. */
export type Add = (
  severity: "error" | "warning",
  field: string,
  detail: string,
  line?: number,
) => void;

/** The bar's checks of `skill`. */
export function lintBar(skill: Skill, options: LintSkillOptions, add: Add): void {
  const counts = [
    ["examples", skill.examples.length, options.minExamples ?? 5],
    ["concepts", skill.concepts.length, options.minConcepts ?? 3],
    ["pitfalls", skill.pitfalls.length, options.minPitfalls ?? 3],
  ] as const;
  for (const [field, count, min] of counts) {
    if (count < min) add("error", field, `has ${count} ${field}; at least ${min} are needed`);
  }
  const description = skill.description.trim();
  const min = options.minDescriptionLength ?? 20;
  const max = options.maxDescriptionLength ?? 1024;
  if (description.length < min && description.length <= max) {
    add(
      "error",
      "description",
      `the description has ${description.length} characters; use ${min}-${max}`,
    );
  }
  const tasks = new Map<string, number>();
  skill.examples.forEach((example, i) => {
    const field = `examples[${i}]`;
    const args = example.args.trim();
    if (args === "") add("warning", `${field}.args`, `example ${i + 1} has empty args`);
    // Where the skill names another program, its own name counts only as written (lowercase):
    // `Mutect2 …` is a subcommand of the mutect2 skill's `gatk`, `picard SortSam` is not.
    const skillName = skill.command === undefined ||
        programNames(skill.command).includes(skill.name) ||
        args.split(/\s+/)[0].split("/").at(-1) === skill.name
      ? skill.name
      : undefined;
    const program = leadingProgram(args, [skill.command, example.command, skillName]);
    if (program !== undefined) {
      add(
        "error",
        `${field}.args`,
        `the args of example ${i + 1} start with the program name ${quote(program.word)}; ${
          program.companion
            ? "name a companion program in a **Command:** line and leave it out of the args"
            : "leave it out (the caller puts the program in front)"
        }`,
      );
    }
    const task = example.task.trim().toLowerCase();
    const earlier = tasks.get(task);
    if (earlier !== undefined) {
      add(
        "warning",
        `${field}.task`,
        `example ${i + 1} has the same task as example ${earlier + 1}: ${quote(example.task)}`,
      );
    } else tasks.set(task, i);
    if (example.explanation.trim() === "") {
      add("warning", `${field}.explanation`, `example ${i + 1} has an empty explanation`);
    }
  });
}

/** What follows a program name in a companion's name: `-build`, `_extract_exons.py`. */
const COMPANION_TAIL = /^[-_][a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.(?:py|pl|sh|r|jar))?$/;

/**
 * The program name `args` starts with, if any: one of the names of
 * `commands`, or a companion (`hisat2-build`, `hisat2_extract_exons.py`).
 */
function leadingProgram(
  args: string,
  commands: readonly (string | undefined)[],
): { word: string; companion: boolean } | undefined {
  const word = args.split(/\s+/, 1)[0]!;
  const first = word.slice(word.lastIndexOf("/") + 1).toLowerCase();
  if (first === "") return undefined;
  const names = commands.flatMap((c) => c === undefined ? [] : programNames(c));
  if (names.includes(first)) return { word, companion: false };
  const companion = !word.includes("/") &&
    names.some((name) => first.startsWith(name) && COMPANION_TAIL.test(first.slice(name.length)));
  return companion ? { word, companion: true } : undefined;
}
