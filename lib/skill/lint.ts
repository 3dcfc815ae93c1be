/**
 * Check a skill by its format: every skill against the Agent Skills specification (name,
 * lengths, `allowed-tools`, the files its body names), and skills in skillmux's
 * Concepts/Pitfalls/Examples format (or any skill, on request) against that format's bar.
 *
 * @module
 */

import type { Skill, SkillDiagnostic } from "./types.ts";
import { quote } from "./_location.ts";
import { skillKind } from "./kind.ts";
import { type Add, lintBar } from "./_lint_bar.ts";
import { lintSpec } from "./_lint_spec.ts";
import type { LintSkillOptions } from "./_lint_options.ts";

export type { LintSkillOptions } from "./_lint_options.ts";

/**
 * Checks `skill`. Against the Agent Skills specification, always — errors: a front-matter `name`
 * that is not the folder name (a display name, a mismatch: see `Skill.declaredName`), a
 * description outside 1–1024 characters, `compatibility` over 500 characters, an
 * `allowed-tools` entry that is not a tool name (`Read`, `Bash(git:*)`), a relative path the
 * body names (a Markdown link, or a path under `scripts/`, `references/`, `assets/` or another
 * folder of the skill) that is not in `options.files`; warnings: a description over 250
 * characters, with `<` or `>`, or without a cue of when to use the skill, a body over 500 lines
 * or about 5,000 tokens, a link out of the skill's folder.
 *
 * Against skillmux's Concepts/Pitfalls/Examples bar, for skills in that format (or with
 * `bar: "skillmux"`) — errors: fewer than 5 examples, 3 concepts or 3 pitfalls; a description
 * under 20 characters; example args that start with a program name — the skill's `command`, the
 * example's `**Command:**` or the skill name (its first word, or the last word of a multi-word
 * command such as `picard.jar`, case-insensitive; where `command` names another program, the
 * skill name only as written, so `Mutect2` after `gatk` is a subcommand), or a companion of one
 * of them such as `hisat2-build` — since the caller puts the program in front (`sort -o out.bam
 * in.bam`, not `samtools sort …`; a companion program goes in a `**Command:**` line); warnings:
 * duplicate example tasks, empty args or explanations.
 *
 * @param skill A parsed skill.
 * @param options The bar, the folder's files, and thresholds to use instead of the defaults.
 * @returns The problems found, empty when the skill meets the bar.
 *
 * @example Lint a skill before publishing it
 * ```ts
 * import { isLintClean, lintSkill, parseSkill } from "@skillmux/core/skill";
 * const text = "---\nname: pdf\ndescription: Fill PDF forms. Use when handling PDFs.\n---\n" +
 *   "Run `python scripts/fill.py`.\n";
 * const { skill } = await parseSkill(text, { name: "pdf" });
 * console.log(isLintClean(lintSkill(skill, { files: ["scripts/fill.py"] }))); // true
 * console.log(lintSkill(skill, { files: [] })[0]?.message); // ... names "scripts/fill.py", which is not a file of the skill
 * ```
 */
export function lintSkill(skill: Skill, options: LintSkillOptions = {}): SkillDiagnostic[] {
  const out: SkillDiagnostic[] = [];
  const add: Add = (severity, field, detail, line) =>
    out.push({
      severity,
      message: `Skill ${quote(skill.name)}: ${detail}`,
      skill: skill.name,
      field,
      ...(line === undefined ? {} : { line }),
    });
  lintSpec(skill, options, add);
  const bar = options.bar ?? "auto";
  if (bar === "skillmux" || (bar === "auto" && skillKind(skill) === "skillmux")) {
    lintBar(skill, options, add);
  }
  return out;
}

/**
 * Whether `diagnostics` hold no error (warnings are allowed).
 *
 * @param diagnostics What {@linkcode lintSkill} or {@linkcode parseSkill} returned.
 * @returns `true` when no diagnostic has severity `error`.
 *
 * @example Gate on lint errors only
 * ```ts
 * import { isLintClean } from "@skillmux/core/skill";
 * console.log(isLintClean([{ severity: "warning", message: "long description" }])); // true
 * ```
 */
export function isLintClean(diagnostics: readonly SkillDiagnostic[]): boolean {
  return diagnostics.every((d) => d.severity !== "error");
}
