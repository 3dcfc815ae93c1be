// Private: the environment a stdio server starts with.

/**
 * The variables a stdio server inherits by default (`inheritEnv: "minimal"`):
 * enough to find programs, a home, the locale and a temp dir; no secrets.
 *
 * @example
 * ```ts
 * import { MINIMAL_ENV } from "@skillmux/core/stdio";
 * console.log(MINIMAL_ENV.includes("PATH"), MINIMAL_ENV.includes("OPENAI_API_KEY")); // true false
 * ```
 */
export const MINIMAL_ENV: readonly string[] = [
  // POSIX (the MCP SDK's default list, plus locale, time zone and temp dir)
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  // Windows
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PROCESSOR_ARCHITECTURE",
  "PROGRAMFILES",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "USERNAME",
  "USERPROFILE",
];

function read(parent: Record<string, string | undefined>, name: string): string | undefined {
  try {
    const value = parent[name];
    // Skip exported shell functions, as the MCP SDK does.
    return typeof value === "string" && !value.startsWith("()") ? value : undefined;
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/**
 * The child's environment: the inherited variables (`minimal`: {@linkcode MINIMAL_ENV};
 * `all`: everything; a list: the minimal set plus those names), then `extra` on top.
 */
export function childEnv(
  parent: Record<string, string | undefined>,
  inherit: "minimal" | "all" | readonly string[],
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  let names: Iterable<string>;
  if (inherit === "all") {
    try {
      names = Object.keys(parent);
    } catch {
      names = MINIMAL_ENV;
    }
  } else {
    names = inherit === "minimal" ? MINIMAL_ENV : [...MINIMAL_ENV, ...inherit];
  }
  for (const name of names) {
    const value = read(parent, name);
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
