/**
 * The quality bar of a skill: enough concepts, pitfalls and worked examples,
 * and a description that says what the skill does and when to use it.
 *
 * @module
 */

import type { Skill, SkillDiagnostic } from "./types.ts";
import { quote } from "./_location.ts";
import { programNames } from "./_command.ts";

/** Thresholds of {@linkcode lintSkill}; every one has a default. */
export interface LintSkillOptions {
  /** Fewest examples. Default 5. */
  minExamples?: number;
  /** Fewest concepts. Default 3. */
  minConcepts?: number;
  /** Fewest pitfalls. Default 3. */
  minPitfalls?: number;
  /** Shortest description, in characters. Default 20. */
  minDescriptionLength?: number;
  /** Longest description, in characters. Default 1024 (Agent Skills). */
  maxDescriptionLength?: number;
  /** Longer descriptions get a warning: Claude Code truncates listings there. Default 250. */
  listedDescriptionLength?: number;
  /** Require a "when" clause (`Use when …`, `Use for …`, `… when …`). Default `true`. */
  requireWhen?: boolean;
}

/** A "when to use it" clause: `Use when`, `Use for`, `Use to`, `Useful for`, `when …`. */
const WHEN =
  /\bwhen(?:ever)?\b|\buse(?:d|ful)?\s+(?:it\s+|this(?:\s+skill)?\s+)?(?:when|for|to|if|on|with|while)\b/i;

/**
 * Checks `skill` against the quality bar of the format. Errors: fewer than 5
 * examples, 3 concepts or 3 pitfalls; a description outside 20–1024
 * characters or without a "when" clause; example args that start with a
 * program name — the skill's `command`, the example's `**Command:**` or the
 * skill name (its first word, or the last word of a multi-word command such as
 * `picard.jar`, case-insensitive; where `command` names another program, the
 * skill name only as written, so `Mutect2` after `gatk` is a subcommand), or a companion of one of them such as
 * `hisat2-build` — since the caller puts the program in front
 * (`sort -o out.bam in.bam`, not `samtools sort …`; a companion program goes in
 * a `**Command:**` line). Warnings: a description over 250 characters or with
 * `<` or `>`; duplicate example tasks; empty args or explanations.
 *
 * @param skill A parsed skill.
 * @param options Thresholds to use instead of the defaults.
 * @returns The problems found, empty when the skill meets the bar.
 *
 * @example Lint a skill before publishing it
 * ```ts
 * import { isLintClean, lintSkill, parseSkill } from "@skillmux/core";
 * const { skill } = await parseSkill("---\nname: demo\ndescription: A demo.\n---\n");
 * const problems = lintSkill(skill, { minExamples: 0, minConcepts: 0, minPitfalls: 0 });
 * console.log(isLintClean(problems)); // false: the description is short and says not when
 * ```
 */
export function lintSkill(skill: Skill, options: LintSkillOptions = {}): SkillDiagnostic[] {
  const out: SkillDiagnostic[] = [];
  const add = (severity: "error" | "warning", field: string, detail: string) =>
    out.push({
      severity,
      message: `Skill ${quote(skill.name)}: ${detail}`,
      skill: skill.name,
      field,
    });
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
  const listed = options.listedDescriptionLength ?? 250;
  if (description.length < min || description.length > max) {
    add(
      "error",
      "description",
      `the description has ${description.length} characters; use ${min}-${max}`,
    );
  }
  if ((options.requireWhen ?? true) && !WHEN.test(description)) {
    add(
      "error",
      "description",
      'the description must say what the skill does and when to use it (e.g. "Use when …")',
    );
  }
  if (description.length > listed && description.length <= max) {
    add(
      "warning",
      "description",
      `the description has ${description.length} characters; listings truncate it at ${listed}`,
    );
  }
  if (/[<>]/.test(description)) {
    add("warning", "description", 'the description should not contain "<" or ">"');
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
  return out;
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

/**
 * Whether `diagnostics` hold no error (warnings are allowed).
 *
 * @param diagnostics What {@linkcode lintSkill} or {@linkcode parseSkill} returned.
 * @returns `true` when no diagnostic has severity `error`.
 *
 * @example Gate on lint errors only
 * ```ts
 * import { isLintClean } from "@skillmux/core";
 * console.log(isLintClean([{ severity: "warning", message: "long description" }])); // true
 * ```
 */
export function isLintClean(diagnostics: readonly SkillDiagnostic[]): boolean {
  return diagnostics.every((d) => d.severity !== "error");
}
