// Private: pieces of rendered examples: code spans and `**Command:**` lines, also inserted
// into a body so that every example names its program.

import type { Skill } from "./types.ts";
import { Report } from "./_report.ts";
import { type ExampleSpan, readSections } from "./_sections.ts";

/** `**Command:** \`prog\``, the line that names an example's program. */
export function commandLine(program: string): string {
  return `**Command:** ${codeSpan(program)}\n`;
}

/**
 * `skill.body` with a `**Command:**` line (the skill's program) inserted before
 * the `**Args:**` of every example that has none. Reading it back gives the
 * same command lines: an example's own command wins over the skill's.
 */
export function bodyWithCommands(skill: Skill): string {
  const spans: ExampleSpan[] = [];
  readSections(skill.body, 0, new Report(undefined, false), spans);
  const program = skill.command ?? skill.name;
  const lines = skill.body.split("\n");
  for (const span of spans.reverse()) {
    if (!span.hasCommand) lines.splice(span.argsLine, 0, commandLine(program).trimEnd());
  }
  return lines.join("\n");
}

/** An inline code span that holds `text` exactly, whatever backticks it contains. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
