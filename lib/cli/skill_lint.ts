// `skillmux skill lint <file-or-folder>`: parse (lenient, or --strict) and check the quality bar.

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isSkillParseError } from "../skill/errors.ts";
import { lintSkill } from "../skill/lint.ts";
import { parseSkill } from "../skill/parse.ts";
import type { SkillDiagnostic } from "../skill/types.ts";
import { CliError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { printJson } from "./_context.ts";

/** The skill files of a folder: `x.md`, `x/SKILL.md`, `x.toml`, sorted. */
async function skillFiles(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw new CliError(`Cannot read ${target}: ${(error as Error).message}`, { cause: error });
  }
  if (!info.isDirectory()) return [target];
  const files: string[] = [];
  for (const entry of await readdir(target, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(target, entry.name);
    if (entry.isFile() && /\.(md|toml)$/.test(entry.name)) files.push(path);
    else if (entry.isDirectory()) {
      const inner = join(path, "SKILL.md");
      if (await stat(inner).then((s) => s.isFile(), () => false)) files.push(inner);
    }
  }
  if (files.length === 0) {
    throw new CliError(`No skill files (*.md, */SKILL.md, *.toml) in ${target}`);
  }
  return files.sort();
}

/** The expected skill name of a path: `x.md`, `x.toml`, `x/SKILL.md` → `x`. */
function expectedName(path: string): string {
  const base = basename(path);
  return base === "SKILL.md" ? basename(dirname(path)) : base.replace(/\.(md|toml)$/, "");
}

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
  diagnostics: SkillDiagnostic[];
}

async function lintFile(file: string, strict: boolean): Promise<FileReport> {
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
      name: expectedName(file),
      strict,
    });
    return { file, name: skill.name, diagnostics: [...diagnostics, ...lintSkill(skill)].map(at) };
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
  summary: "Check skills against the quality bar; exit 1 on any error",
  options: ["--strict     treat parser warnings as errors"],
  spec: { strict: { type: "boolean" } },
  async run(ctx, [target], values) {
    const reports: FileReport[] = [];
    for (const file of await skillFiles(target)) {
      reports.push(await lintFile(file, values.strict === true));
    }
    const all = reports.flatMap((r) => r.diagnostics);
    const errors = all.filter((d) => d.severity === "error").length;
    const warnings = all.length - errors;
    if (ctx.json) {
      printJson(ctx, { files: reports, errors, warnings });
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
    const files = `${reports.length} file${reports.length === 1 ? "" : "s"}`;
    ctx.out(
      `${files}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${
        warnings === 1 ? "" : "s"
      }`,
    );
    return errors > 0 ? 1 : 0;
  },
};
