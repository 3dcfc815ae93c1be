// Private: argument parsing for the `skillmux` command, over `node:util` parseArgs.

import { parseArgs } from "node:util";

/**
 * Why a command failed: `usage` (a {@linkcode UsageError}: exit code 2) or `failed` (anything
 * else the user can act on: exit code 1).
 */
export type CliErrorCode = "usage" | "failed";

/** A failure the user can act on, reported as one line (exit code 1); the CLI family's base. */
export class CliError extends Error {
  /** Why (see {@linkcode CliErrorCode}). */
  readonly code: CliErrorCode = "failed";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CliError";
  }
}

/** A usage error: unknown command or flag, missing or extra argument (exit code 2). */
export class UsageError extends CliError {
  override readonly code: "usage" = "usage";
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** One option of a command, as `parseArgs` takes it. */
export interface OptionSpec {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
}

/** Options of a command, by long name. */
export type OptionsSpec = Record<string, OptionSpec>;

/** Parsed option values. */
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** Options every command takes. */
export const GLOBAL_OPTIONS: OptionsSpec = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  home: { type: "string" },
  "config-dir": { type: "string" },
  "user-dir": { type: "string" },
  "community-dir": { type: "string" },
  "no-builtin": { type: "boolean" },
};

/**
 * The first `count` words of `argv` that are not flags (or values of global
 * string flags): the command group and subcommand.
 */
export function leadingWords(argv: readonly string[], count: number): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < count; i++) {
    const arg = argv[i];
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      const spec = GLOBAL_OPTIONS[arg.replace(/^--?/, "")];
      if (spec?.type === "string" && !arg.includes("=")) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/** Parse `argv` against the global options plus `options`; unknown flags are usage errors. */
export function parse(
  argv: readonly string[],
  options: OptionsSpec,
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...GLOBAL_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw new UsageError(text.replace(/\. To specify a positional argument.*$/s, ""));
  }
}

/** A string option, or `undefined`. */
export function str(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** Split a command line into words: whitespace separates, `'…'` and `"…"` quote, `\` escapes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (quote) throw new CliError(`Unbalanced ${quote} in --command`);
  if (started) words.push(word);
  return words;
}
