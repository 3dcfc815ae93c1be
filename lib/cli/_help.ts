// Private: help text for `skillmux`, its groups and its commands.

import type { Command } from "./_command.ts";
import { cliInvocation } from "./_invocation.ts";

const GLOBAL = [
  "--json                 machine-readable output",
  "--home <dir>           use <dir> for everything (same as SKILLMUX_HOME)",
  "--config-dir <dir>     folder of config.toml (MCP servers)",
  "--user-dir <dir>       user skills folder",
  "--community-dir <dir>  community skills folder",
  "--no-builtin           leave the built-in skills out (also SKILLMUX_NO_BUILTIN=1, or",
  "                       builtin = false under [skills] in config.toml)",
  "-h, --help             show help",
];

const FOOTER = [
  "Exit codes: 0 ok, 1 failure (a server down, lint errors, bad input), 2 usage error.",
  "Folders: user $XDG_CONFIG_HOME/skillmux/skills, community $XDG_DATA_HOME/skillmux/skills,",
  "config $XDG_CONFIG_HOME/skillmux/config.toml; SKILLMUX_HOME=<dir> uses <dir>/skills,",
  "<dir>/community and <dir>/config.toml. NO_COLOR disables colours.",
];

const usage = (c: Command) => `skillmux ${c.words.join(" ")}${c.args ? ` ${c.args}` : ""}`;

/** Help for one command. */
export function commandHelp(c: Command): string {
  const lines = [`Usage: ${usage(c)} [options]`, "", c.summary + ".", ""];
  if (c.details) lines.push(...c.details, "");
  if (c.options?.length) lines.push("Options:", ...c.options.map((o) => `  ${o}`), "");
  lines.push("Global options:", ...GLOBAL.map((o) => `  ${o}`));
  return lines.join("\n") + "\n";
}

/** Help for all commands, or those of one group. */
export function overviewHelp(commands: readonly Command[], group?: string): string {
  const shown = group ? commands.filter((c) => c.words[0] === group) : commands;
  const width = Math.max(...shown.map((c) => usage(c).length));
  const lines = [
    group ? `Usage: skillmux ${group} <command> [options]` : "Usage: skillmux <command> [options]",
    "",
    ...(group ? [] : ["skillmux: the right skills and tools for an LLM request.", ""]),
    // Where `skillmux` is not on PATH (a clone, a project install), say what runs it here.
    ...(cliInvocation() === "skillmux" ? [] : [`Run it here as: ${cliInvocation()} <command>`, ""]),
    "Commands:",
    ...shown.map((c) => `  ${usage(c).padEnd(width)}  ${c.summary}`),
    ...(group ? [] : [`  ${"skillmux help [command]".padEnd(width)}  Show help for a command`]),
    "",
    "Global options:",
    ...GLOBAL.map((o) => `  ${o}`),
    "",
    ...FOOTER,
  ];
  return lines.join("\n") + "\n";
}
