// `skillmux skill lint <file-or-folder>`: parse (lenient, or --strict) and check each skill by
// its format, with its folder's files. A folder is one skill (it holds SKILL.md) or a collection:
// its skill files and the skill folders below it; README.md and the like are not skills.

import { readFile } from "node:fs/promises";
import { findSkills, type FoundSkill } from "../install/discover.ts";
import { walkSkillFolder } from "../resolve/fs_folder.ts";
import { isSkillParseError } from "../skill/errors.ts";
import { SKILL_FOLDER_LIMITS } from "../skill/files.ts";
import { lintSkill } from "../skill/lint.ts";
import { parseSkill } from "../skill/parse.ts";
import type { SkillDiagnostic } from "../skill/types.ts";
import { CliError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { printJson } from "./_context.ts";

/** The line a field or section starts on, for diagnostics that carry none. */
function lineOf(text: string, field: string | undefined): number | undefined {
  if (!field) return undefined;
  const key = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^(?:${key}\\s*[:=]|#+\\s*${key}\\b|\\[${key}\\])`, "i");
  const index = text.split(/\r?\n/).findIndex((line) => re.test(line.trim()));
  return index >= 0 ? index + 1 : undefined;
}

interface FileReport {
  file: string;
  name?: string;
  /** Files of its folder, for a folder skill. */
  files?: number;
  diagnostics: SkillDiagnostic[];
}

async function lintFound(
  found: FoundSkill,
  strict: boolean,
  bar: "auto" | "skillmux",
): Promise<FileReport> {
  const file = found.document;
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new CliError(`Cannot read ${file}: ${error.message}`, { cause: error });
  });
  const at = (d: SkillDiagnostic): SkillDiagnostic => ({
    ...d,
    source: file,
    line: d.line ?? lineOf(text, d.field) ?? 1,
  });
  try {
    const { skill, diagnostics } = await parseSkill(text, {
      source: file,
      name: found.name,
      strict,
    });
    const walk = found.folder === undefined ? undefined : await walkSkillFolder(found.folder, {
      maxFiles: SKILL_FOLDER_LIMITS.maxFiles,
      maxBytes: SKILL_FOLDER_LIMITS.maxBytes,
    });
    const lines = text.replace(/\r\n?/g, "\n").split("\n").length;
    const lint = lintSkill(skill, {
      bar,
      files: walk?.files.map((f) => f.path) ?? [],
      bodyLine: lines - skill.body.split("\n").length + 1,
    });
    const notes: SkillDiagnostic[] = (walk?.notes ?? []).map((note) => ({
      severity: "warning",
      message: `Skill "${skill.name}": ${note}`,
      skill: skill.name,
      field: "files",
    }));
    return {
      file,
      name: skill.name,
      ...(walk ? { files: walk.files.length } : {}),
      diagnostics: [...diagnostics, ...lint, ...notes].map(at),
    };
  } catch (error) {
    if (!isSkillParseError(error)) throw error;
    const found = error.diagnostics.length > 0 ? error.diagnostics : [{
      severity: "error" as const,
      message: error.message,
      line: error.line,
      field: error.field,
    }];
    return { file, diagnostics: found.map(at) };
  }
}

/** `skill lint`. */
export const lint: Command = {
  words: ["skill", "lint"],
  args: "<file-or-folder>",
  min: 1,
  summary: "Check skills by their format (Agent Skills spec, skillmux's bar); exit 1 on any error",
  options: [
    "--strict     treat parser warnings as errors (for publishers)",
    "--bar        hold every skill to the Concepts/Pitfalls/Examples bar, not only skillmux-format ones",
  ],
  details: [
    "Every skill is checked against the Agent Skills specification: its name equals its folder,",
    "description and compatibility lengths, allowed-tools, and every relative path its body names",
    "is a file of the skill. Skills in skillmux's format also need 5 examples, 3 concepts, 3 pitfalls.",
    "A folder is one skill (it holds SKILL.md) or a collection; README.md and the like are skipped.",
  ],
  spec: { strict: { type: "boolean" }, bar: { type: "boolean" } },
  async run(ctx, [target], values) {
    let found;
    try {
      found = await findSkills(target);
    } catch (error) {
      throw new CliError(`Cannot read ${target}: ${(error as Error).message}`, { cause: error });
    }
    if (found.skills.length === 0) {
      throw new CliError(
        `No skills in ${target} (*.md, *.toml, or folders holding SKILL.md)`,
      );
    }
    const bar = values.bar === true ? "skillmux" : "auto";
    const reports: FileReport[] = [];
    for (const one of found.skills) reports.push(await lintFound(one, values.strict === true, bar));
    const all = reports.flatMap((r) => r.diagnostics);
    const errors = all.filter((d) => d.severity === "error").length;
    const warnings = all.length - errors;
    if (ctx.json) {
      printJson(ctx, { files: reports, errors, warnings, notes: found.notes });
      return errors > 0 ? 1 : 0;
    }
    for (const r of reports) {
      if (r.diagnostics.length === 0) ctx.out(`${ctx.paint.ok("✓")} ${r.file}`);
      for (const d of r.diagnostics) {
        const where = `${r.file}${d.line ? `:${d.line}` : ""}`;
        const severity = d.severity === "error" ? ctx.paint.bad("error") : "warning";
        ctx.out(`${where}: ${severity}${d.field ? ` [${d.field}]` : ""}: ${d.message}`);
      }
    }
    for (const note of found.notes) ctx.err(`note: ${note}`);
    const clean = reports.filter((r) => r.diagnostics.every((d) => d.severity !== "error")).length;
    const files = `${reports.length} file${reports.length === 1 ? "" : "s"}`;
    ctx.out(
      `${files}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${
        warnings === 1 ? "" : "s"
      }${reports.length > 1 ? `; ${clean} of ${reports.length} lint-clean` : ""}`,
    );
    return errors > 0 ? 1 : 0;
  },
};
