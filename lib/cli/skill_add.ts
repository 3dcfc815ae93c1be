// `skillmux skill add <path>`: a skill file, a skill folder (copied whole) or a collection into
// the user or community folder, one verdict per skill.

import { sep } from "node:path";
import { addSkills } from "../install/local.ts";
import type { SkillVerdict } from "../install/types.ts";
import { builtinSkillNames } from "../resolve/builtin_source.ts";
import { formatBytes } from "../_bytes.ts";
import { CliError, str } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, ensureConfigDir, printJson } from "./_context.ts";

/** `12 files, 1.4 MB`. */
function size(verdict: SkillVerdict): string {
  return `${verdict.files} file${verdict.files === 1 ? "" : "s"}, ${formatBytes(verdict.bytes)}`;
}

/** A count such as `1000` or `50M`/`50MB`/`2G` (bytes), or a usage error naming the flag. */
export function count(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\s*([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) {
    throw new CliError(`Invalid ${flag} "${text}": expected a number such as 1000 or 50M`);
  }
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase()]!;
  const value = Number(match[1]) * unit;
  if (!Number.isSafeInteger(value) || value < 1) throw new CliError(`Invalid ${flag} "${text}"`);
  return value;
}

/** Print one verdict: the outcome, then warnings and lint findings (first few). */
export function printVerdict(
  ctx: Context,
  verdict: SkillVerdict,
  where: string,
  builtins: Set<string>,
) {
  const name = `"${verdict.name}"`;
  if (verdict.action === "refused") {
    ctx.out(`${ctx.paint.bad("✗")} Refused ${name}: ${verdict.reason}`);
  } else if (verdict.action === "unchanged") {
    ctx.out(`${ctx.paint.ok("=")} ${name} is unchanged in ${where} (${verdict.path})`);
  } else {
    const verb = verdict.action === "update" ? "Replaced" : "Added";
    ctx.out(`${ctx.paint.ok("✓")} ${verb} ${name} in ${where}: ${verdict.path} (${size(verdict)})`);
  }
  // A refused skill's first error is its reason, shown above; its warnings follow.
  for (const d of verdict.diagnostics) {
    if (d.severity === "warning") ctx.err(`warning: ${d.message}`);
  }
  if (verdict.action === "refused") return;
  const errors = verdict.lint.filter((d) => d.severity === "error");
  for (const d of errors.slice(0, 3)) ctx.err(`note: lint: ${d.message}`);
  if (errors.length > 3) ctx.err(`note: lint: ${errors.length - 3} more; see skillmux skill lint`);
  if (verdict.excluded.length > 0) {
    ctx.err(
      `note: "${verdict.name}": left out by the file rule: ${
        verdict.excluded.map((e) => `${e.path} (${e.reason})`).join(", ")
      }`,
    );
  }
  if (builtins.has(verdict.name) && verdict.action !== "unchanged") {
    ctx.err(`note: "${verdict.name}" now shadows the built-in "${verdict.name}" skill`);
  }
}

/** `skill add`. */
export const add: Command = {
  words: ["skill", "add"],
  args: "<path>",
  min: 1,
  summary: "Add a skill file, a skill folder (whole) or a folder of skills to the user folder",
  options: [
    "--community      add to the community folder instead of the user folder",
    "--force          replace a skill of the same name that differs",
    "--dry-run        check and report; write nothing",
    "--skill <name>   from a folder of skills, add only this one (repeatable)",
    "--max-files <n>  most files per skill (default 1000)",
    "--max-bytes <n>  most bytes per skill, e.g. 50M (default 50M)",
  ],
  details: [
    "A skill folder is copied with every file but dot folders (.git/), .env files and key files;",
    "a symlink, a special file or a folder past the caps refuses the skill and writes nothing of it.",
    "Each skill gets one verdict; the exit code is 1 when any was refused. Scripts are never run.",
  ],
  spec: {
    community: { type: "boolean" },
    force: { type: "boolean" },
    "dry-run": { type: "boolean" },
    skill: { type: "string", multiple: true },
    "max-files": { type: "string" },
    "max-bytes": { type: "string" },
  },
  async run(ctx, [path], values) {
    const tier = values.community === true ? "community" : "user";
    const folders = await ctx.folders();
    const into = folders[tier];
    const dryRun = values["dry-run"] === true;
    if (!dryRun && (into + sep).startsWith(folders.config + sep)) await ensureConfigDir(ctx);
    const only = values.skill as string[] | undefined;
    const result = await addSkills(path, {
      into,
      force: values.force === true,
      dryRun,
      maxFiles: count(str(values, "max-files"), "--max-files"),
      maxBytes: count(str(values, "max-bytes"), "--max-bytes"),
      ...(only ? { only } : {}),
      signal: ctx.io.signal,
    }).catch((error) => {
      throw new CliError((error as Error).message, { cause: error });
    });
    const refused = result.skills.filter((s) => s.action === "refused").length;
    if (ctx.json) {
      printJson(ctx, { source: tier, folder: into, ...result });
      return refused > 0 ? 1 : 0;
    }
    if (result.skills.length === 0) {
      throw new CliError(`No skills in ${path} (skill files, or folders holding SKILL.md)`);
    }
    const builtins = new Set(await builtinSkillNames());
    const where = `the ${tier} skills`;
    for (const verdict of result.skills) printVerdict(ctx, verdict, where, builtins);
    for (const note of result.notes) ctx.err(`note: ${note}`);
    if (result.kind === "collection" || result.skills.length > 1) {
      const done = result.skills.length - refused;
      ctx.out(
        `${dryRun ? "Would add" : "Added"} ${done} of ${result.skills.length} skills from ${path}` +
          (refused > 0 ? ` (${refused} refused)` : ""),
      );
    }
    if (dryRun) ctx.out("Dry run: nothing was written.");
    return refused > 0 ? 1 : 0;
  },
};
