// Private: the shape of one `skillmux` command.

import { type OptionsSpec, UsageError, type Values } from "./_args.ts";
import type { Context } from "./_context.ts";

/** One command: its words, help text, options and implementation. */
export interface Command {
  /** The words that select it, e.g. `["skill", "list"]`. */
  words: readonly string[];
  /** Arguments after the words, e.g. `<name>` or `[folder]`. */
  args: string;
  /** One line for the command list. */
  summary: string;
  /** Option lines for `--help` (global options are added). */
  options?: readonly string[];
  /** Further paragraphs for `--help`. */
  details?: readonly string[];
  /** Options besides the global ones. */
  spec?: OptionsSpec;
  /** Fewest and most positional arguments. */
  min?: number;
  max?: number;
  /** Runs it; resolves to the exit code. */
  run(ctx: Context, args: string[], values: Values): Promise<number>;
}

/** Check the number of positional arguments. */
export function checkArity(command: Command, args: readonly string[]): void {
  const name = command.words.join(" ");
  const min = command.min ?? 0;
  const max = command.max ?? min;
  if (args.length < min) throw new UsageError(`${name}: missing argument ${command.args}`);
  if (args.length > max) {
    throw new UsageError(`${name}: unexpected argument "${args[max]}"`);
  }
}
