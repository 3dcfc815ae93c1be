// Private: asking on a terminal for the values an MCP registry entry needs (secrets without
// echo, choices checked); without a terminal, saying how to give them with --set.

import type { Requirement } from "../mcp/directory/requirements.ts";
import { CliError } from "./_args.ts";
import type { Context } from "./_context.ts";

function prompt(r: Requirement): string {
  const about = r.description ? ` — ${r.description.replace(/\s+/g, " ").slice(0, 120)}` : "";
  const choices = r.choices ? ` [${r.choices.join("/")}]` : "";
  const example = r.placeholder ? ` (e.g. ${r.placeholder})` : "";
  return `  ${r.name}${r.secret ? " (secret, not shown)" : ""}${about}${choices}${example}: `;
}

/** Ask for what `plan` misses, on a terminal; without one, say how to give it. */
export async function askMissing(
  ctx: Context,
  label: string,
  missing: readonly Requirement[],
  given: Record<string, string>,
): Promise<void> {
  if (missing.length === 0) return;
  if (ctx.io.ask === undefined || ctx.json) {
    const list = missing.map((m) => `${m.name}${m.secret ? " (secret)" : ""}`).join(", ");
    throw new CliError(
      `${label} needs ${list}: give ${missing.map((m) => `--set ${m.name}=…`).join(" ")} ` +
        "(--set NAME alone reads $NAME), or run in a terminal to be asked",
    );
  }
  ctx.err(`${label} needs:`);
  for (const need of missing) {
    const ask = need.secret ? ctx.io.askSecret ?? ctx.io.ask : ctx.io.ask;
    let value = (await ask(prompt(need))).trim();
    while (value === "" || (need.choices && !need.choices.includes(value))) {
      ctx.err(
        value === "" ? `  ${need.name} is required` : `  one of: ${need.choices!.join(", ")}`,
      );
      value = (await ask(prompt(need))).trim();
    }
    given[need.name] = value;
  }
}
