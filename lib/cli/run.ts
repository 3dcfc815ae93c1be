/**
 * The `skillmux` command in-process: {@linkcode run} takes the arguments and an
 * {@linkcode CliIo} and resolves to the exit code.
 *
 * @module
 */

import { isMcpError } from "../mcp/protocol/errors.ts";
import { isSkillNotFoundError } from "../resolve/errors.ts";
import { isInvalidSkillNameError, isSkillParseError } from "../skill/errors.ts";
import { leadingWords, parse, UsageError } from "./_args.ts";
import { checkArity, type Command } from "./_command.ts";
import { type CliIo, createContext } from "./_context.ts";
import { commandHelp, overviewHelp } from "./_help.ts";
import { terminalIo } from "./_terminal.ts";
import { cliInvocation } from "./_invocation.ts";
import { call, tools } from "./call.ts";
import { catalogCommands } from "./catalog.ts";
import { mcpCommands } from "./mcp.ts";
import { serve } from "./serve.ts";
import { skillCommands } from "./skill.ts";

export type { CliIo } from "./_context.ts";

const COMMANDS: readonly Command[] = [
  ...skillCommands,
  ...mcpCommands,
  ...catalogCommands,
  tools,
  call,
  serve,
];
const GROUPS = new Set(COMMANDS.map((c) => c.words[0]));

function find(words: readonly string[]): Command | undefined {
  return COMMANDS.find((c) => c.words.every((w, i) => words[i] === w));
}

/** A known failure: one line, no stack. */
function isExpected(error: unknown): boolean {
  return error instanceof Error && (
    error.name === "CliError" || error.name.startsWith("Storage") || isMcpError(error) ||
    isSkillNotFoundError(error) || isSkillParseError(error) || isInvalidSkillNameError(error) ||
    error.name === "InstallError"
  );
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, second] = leadingWords(argv, 2);
  const out = (text: string) => (io.stdout(text), 0);
  if (first === undefined || first === "help") {
    const { values, positionals } = parse(argv, {});
    const topic = first === "help" ? positionals.slice(1) : [];
    if (first === undefined && values.help !== true) {
      io.stderr(overviewHelp(COMMANDS));
      return 2;
    }
    const command = find(topic);
    if (command) return out(commandHelp(command));
    if (topic.length === 0) return out(overviewHelp(COMMANDS));
    if (topic.length === 1 && GROUPS.has(topic[0])) return out(overviewHelp(COMMANDS, topic[0]));
    throw new UsageError(`Unknown command "${topic.join(" ")}"; see ${cliInvocation()} help`);
  }
  if (!GROUPS.has(first)) {
    throw new UsageError(`Unknown command "${first}"; see ${cliInvocation()} help`);
  }
  const command = find([first, second ?? ""]) ?? find([first]);
  if (!command) {
    const { values } = parse(argv, {});
    if (second === undefined) {
      if (values.help === true) return out(overviewHelp(COMMANDS, first));
      io.stderr(overviewHelp(COMMANDS, first));
      return 2;
    }
    throw new UsageError(
      `Unknown command "${first} ${second}"; see ${cliInvocation()} ${first} --help`,
    );
  }
  const { values, positionals } = parse(argv, command.spec ?? {});
  if (values.help === true) return out(commandHelp(command));
  const args = positionals.slice(command.words.length);
  checkArity(command, args);
  return await command.run(createContext(io, values), args, values);
}

/**
 * Run the `skillmux` command with `argv` (the arguments after the program
 * name) and resolve to its exit code: 0 ok, 1 failure, 2 usage error. Errors
 * are written to `io.stderr` as one line; nothing is thrown for bad input.
 *
 * @param argv The arguments, e.g. `["skill", "list", "--json"]`.
 * @param io Where output goes, the environment, colours and a stop signal for `serve`.
 * @returns The exit code.
 *
 * @example List the skills of a temporary home, capturing the output
 * ```ts
 * import { run } from "@skillmux/core/cli";
 * let out = "";
 * const code = await run(["skill", "list", "--json", "--home", "/tmp/skillmux-demo"], {
 *   stdout: (text) => (out += text),
 *   stderr: () => {},
 *   env: {},
 * });
 * console.log(code, JSON.parse(out).skills.length); // 0 16
 * ```
 */
export async function run(argv: string[], raw: CliIo): Promise<number> {
  // The one output path: everything below writes through it, text from outside included.
  const io = terminalIo(raw);
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`skillmux: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`skillmux: ${message}\n`);
    if (!isExpected(error) && io.env?.SKILLMUX_DEBUG && error instanceof Error) {
      io.stderr(`${error.stack}\n`);
    }
    return 1;
  }
}
