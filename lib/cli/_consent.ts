// Private: consent before a configuration becomes a process or a connection. What will run is
// printed exactly — program, every argument, the environment and headers with secrets masked —
// and saved only after a yes on a terminal, or with --yes (which still prints it).

import type { LaunchDescription } from "../mcp/policy/launch.ts";
import { CliError } from "./_args.ts";
import type { Context } from "./_context.ts";

/** The lines that show `launch` (to stderr, where questions go). */
export function launchLines(ctx: Context, name: string, launch: LaunchDescription): string[] {
  const lines: string[] = [];
  if (launch.kind === "stdio") {
    lines.push(`  ${ctx.paint.bold(name)} will run on this machine (no shell):`);
    lines.push(`    ${launch.commandLine}`);
    if (launch.cwd) lines.push(`    in ${launch.cwd}`);
    for (const e of launch.env) lines.push(`    env ${e.name}=${e.value}`);
  } else {
    lines.push(`  ${ctx.paint.bold(name)} will connect to ${launch.url}`);
    for (const h of launch.headers) lines.push(`    header ${h.name}: ${h.value}`);
  }
  for (const w of launch.warnings) lines.push(`    ${ctx.paint.bad("warning:")} ${w}`);
  return lines;
}

/**
 * Show what each server will run and ask once whether to save them; `--yes` answers for a
 * script. Without a terminal and without `--yes`, nothing is saved.
 */
export async function consent(
  ctx: Context,
  shown: ReadonlyArray<{ name: string; launch: LaunchDescription }>,
  yes: boolean,
  verb = "Save",
): Promise<void> {
  for (const { name, launch } of shown) launchLines(ctx, name, launch).forEach((l) => ctx.err(l));
  if (yes) return;
  const what = shown.length === 1 ? `"${shown[0].name}"` : `these ${shown.length} servers`;
  if (ctx.io.ask === undefined || ctx.json) {
    throw new CliError(
      `Not saved: ${what} would run or connect as shown above; give --yes to save without ` +
        "asking (no terminal to ask on)",
    );
  }
  const answer = (await ctx.io.ask(`${verb} ${what}? [y/N] `)).trim();
  if (!/^y(es)?$/i.test(answer)) throw new CliError(`Not saved: ${what} (answered "${answer}")`);
}
