// Private: what every command gets — output, colours, the folders and the server registry.

import { chmod, mkdir } from "node:fs/promises";
import process from "node:process";
import {
  type DefaultSkillFolders,
  defaultSkillFolders,
  type DefaultSourcesOptions,
} from "../resolve/default_sources.ts";
import { createServerRegistry, type ServerRegistry } from "../mcp/registry/registry.ts";
import { stdio } from "../mcp/transport/stdio.ts";
import type { StdioConnector } from "../mcp/client/connect_options.ts";
import { createOAuthStore } from "../mcp/auth/store.ts";
import type { OAuthStore } from "../mcp/auth/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { str, type Values } from "./_args.ts";
import { sgr, visibleWidth } from "./_terminal.ts";
import { startupReporter } from "./_startup.ts";
import { CLI_CAPABILITIES, cliHandlers } from "./_handlers.ts";

/**
 * Input and output of one {@linkcode run} call: where text goes, the
 * environment to read, whether to colour, and a signal that stops `serve`.
 */
export interface CliIo {
  /**
   * Receives standard output, in chunks that end with a newline. Terminal controls in what the
   * CLI prints (C0 but newline and tab, DEL, C1) arrive written out as `\uXXXX`.
   */
  stdout: (text: string) => void;
  /** Receives errors, warnings and progress lines. */
  stderr: (text: string) => void;
  /** Environment variables (default: none; the command-line entry passes the process environment). */
  env?: Record<string, string | undefined>;
  /** Use ANSI colours (the entry sets it when stdout is a TTY); `NO_COLOR` always wins. */
  color?: boolean;
  /** Stops a running `serve` (the entry uses SIGINT and SIGTERM when this is absent). */
  signal?: AbortSignal;
  /** Standard error is a terminal: progress lines are shown there (the entry sets it). */
  stderrIsTerminal?: boolean;
  /**
   * Asks the user a question (the entry sets it when stdin and stderr are terminals); `signal`
   * abandons the question.
   */
  ask?: (question: string, options?: { signal?: AbortSignal }) => Promise<string>;
  /** Asks for a secret without echoing it (the entry sets it with `ask`). */
  askSecret?: (question: string) => Promise<string>;
}

/** Styles text when colours are on. */
export interface Paint {
  ok(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** The state a command runs with. */
export interface Context {
  io: CliIo;
  env: Record<string, string | undefined>;
  json: boolean;
  paint: Paint;
  /** Options for `listSkills`, `resolveSkill` and `defaultSkillFolders`. */
  sourceOptions: DefaultSourcesOptions;
  /** The user, community and config folders. */
  folders(): Promise<DefaultSkillFolders>;
  /**
   * The registry over `config.toml` in the config folder (created 0700, file 0600). Its
   * connections declare what the CLI answers (elicitation, sampling, roots) unless `client` is
   * `false` (the gateway, whose upstream connections declare nothing of the kind).
   */
  registry(options?: { client?: boolean }): Promise<ServerRegistry>;
  /** The stdio connector every command uses (slow starts reported on stderr). */
  stdio: StdioConnector;
  /** OAuth tokens and registrations: `oauth/` in the config folder (files 0600). */
  oauthStore(): Promise<OAuthStore>;
  out(line?: string): void;
  err(line: string): void;
}

// Colours are markers that the terminal writer (`_terminal.ts`) alone turns into escapes.
const style = (on: boolean, open: number, close: number) => (text: string) =>
  on ? `${sgr(open)}${text}${sgr(close)}` : text;

/** Build the context from the global option values. */
export function createContext(io: CliIo, values: Values): Context {
  const home = str(values, "home");
  const env: Record<string, string | undefined> = { ...io.env };
  if (home !== undefined) env.SKILLMUX_HOME = home;
  const on = io.color === true && !env.NO_COLOR;
  const sourceOptions: DefaultSourcesOptions = {
    env,
    userDir: str(values, "user-dir"),
    communityDir: str(values, "community-dir"),
    configDir: str(values, "config-dir"),
    // --no-builtin; else SKILLMUX_NO_BUILTIN or [skills] builtin in config.toml decide.
    ...(values["no-builtin"] === true ? { builtin: false } : {}),
  };
  const folders = async () => (await defaultSkillFolders(sourceOptions))!;
  const oauthStore = async () =>
    createOAuthStore(createFsStorage({ root: (await folders()).config, private: true }));
  const paint: Paint = {
    ok: style(on, 32, 39),
    bad: style(on, 31, 39),
    dim: style(on, 2, 22),
    bold: style(on, 1, 22),
  };
  const err = (line: string) => io.stderr(`${line}\n`);
  // Every stdio server a command starts: a slow start is announced, with its stderr meanwhile.
  const connector = stdio({ onStartup: startupReporter({ err, paint }) });
  const ctx: Context = {
    io,
    env,
    json: values.json === true,
    paint,
    stdio: connector,
    sourceOptions,
    folders,
    async registry({ client = true } = {}) {
      const { config } = await folders();
      return createServerRegistry({
        storage: createFsStorage({ root: config, private: true }),
        connect: {
          stdio: connector,
          // Stored OAuth tokens are used (and refreshed); signing in is `mcp login`.
          auth: { store: await oauthStore() },
          // Discovery sees what a call will: the tools a server offers a full client.
          ...(client
            ? { capabilities: CLI_CAPABILITIES, handlers: cliHandlers(ctx), listen: false }
            : {}),
        },
      });
    },
    oauthStore,
    out: (line = "") => io.stdout(`${line}\n`),
    err,
  };
  return ctx;
}

/**
 * Create the config folder 0700 (and tighten it if it exists), before anything is written
 * there or below it: `config.toml` holds API keys.
 */
export async function ensureConfigDir(ctx: Context): Promise<string> {
  const { config } = await ctx.folders();
  await mkdir(config, { recursive: true, mode: 0o700 });
  if (process.platform !== "win32") await chmod(config, 0o700);
  return config;
}

/** Print `value` as indented JSON. */
export function printJson(ctx: Context, value: unknown): void {
  ctx.out(JSON.stringify(value, null, 2));
}

/** Pad cells into aligned columns (the last column is not padded). */
export function table(rows: readonly string[][]): string[] {
  const width = visibleWidth;
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  }
  return rows.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell + " ".repeat(widths[i] - width(cell)))
      .join("  ").trimEnd()
  );
}
