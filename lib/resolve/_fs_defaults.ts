// Private, Deno/Node only: the user and community skill folders of the zero-config resolver.
// default_sources.ts loads it lazily, so browser bundles keep it in a chunk they never fetch, and
// package.json "browser" swaps it for _fs_defaults_browser.ts, so one-file browser bundles drop it.
//
// Under Deno a missing permission (`--allow-env` to find a folder, `--allow-read` for the
// MCP registry's config.toml) skips only the source concerned: it stays in the chain as an
// unavailable source that every resolve reports as a diagnostic, and the built-ins still answer.

import { nodeBuiltins } from "../_node.ts";
import { deniedMessage, isPermissionError } from "../_permission.ts";
import { createFsStorage } from "../storage/fs.ts";
import { PolicyError } from "../mcp/protocol/errors.ts";
import { createServerRegistry } from "../mcp/registry/registry.ts";
import { stdio } from "../mcp/transport/stdio.ts";
import { createMcpSkillSources } from "./mcp_source.ts";
import { createStorageSource } from "./storage_source.ts";
import { fsSkillFiles } from "./fs_files.ts";
import { unavailableSource } from "./_unavailable_source.ts";
import { ResolveError } from "./errors.ts";
import type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";
import type { SkillSource, SourceTier } from "./types.ts";

type Folder = keyof DefaultSkillFolders;

const WHAT: Record<Folder, string> = {
  user: "the user skills folder",
  community: "the community skills folder",
  config: "the MCP server registry (config.toml)",
};

/** A variable that locates a folder could not be read (Deno without `--allow-env`). */
class EnvDeniedError extends ResolveError {
  declare readonly code: "env-denied";
  constructor(folder: Folder, variable: string, cause: unknown) {
    super(
      "env-denied",
      `Cannot locate ${WHAT[folder]}: reading the environment variable ${variable} was denied; ` +
        `run Deno with --allow-env (or pass the ${folder}Dir option)`,
      { cause },
    );
    this.name = "EnvDeniedError";
  }
}

/** One folder, after options and environment variables; throws `EnvDeniedError` when denied. */
function folderOf(folder: Folder, options: DefaultSourcesOptions): string {
  const { path, os, env: processEnv } = nodeBuiltins("The default skill folders");
  const source = options.env ?? processEnv;
  const env = (name: string): string | undefined => {
    try {
      return source[name] || undefined;
    } catch (error) {
      if (isPermissionError(error)) throw new EnvDeniedError(folder, name, error);
      throw error;
    }
  };
  const home = (): string => {
    const fromEnv = env("HOME");
    if (fromEnv !== undefined) return fromEnv;
    try {
      return os.homedir();
    } catch (error) {
      if (isPermissionError(error)) throw new EnvDeniedError(folder, "HOME", error);
      throw error;
    }
  };
  const configHome = () => env("XDG_CONFIG_HOME") ?? path.join(home(), ".config");
  const dataHome = () => env("XDG_DATA_HOME") ?? path.join(home(), ".local", "share");
  if (folder === "user") {
    if (options.userDir !== undefined) return options.userDir;
    const own = env("SKILLMUX_USER_SKILLS");
    if (own !== undefined) return own;
    const base = env("SKILLMUX_HOME");
    return base ? path.join(base, "skills") : path.join(configHome(), "skillmux", "skills");
  }
  if (folder === "community") {
    if (options.communityDir !== undefined) return options.communityDir;
    const own = env("SKILLMUX_COMMUNITY_SKILLS");
    if (own !== undefined) return own;
    const base = env("SKILLMUX_HOME");
    return base ? path.join(base, "community") : path.join(dataHome(), "skillmux", "skills");
  }
  if (options.configDir !== undefined) return options.configDir;
  return env("SKILLMUX_CONFIG_DIR") ?? env("SKILLMUX_HOME") ??
    path.join(configHome(), "skillmux");
}

/** The user and community skill folders, after options and environment variables. */
export function skillFolders(options: DefaultSourcesOptions = {}): DefaultSkillFolders {
  return {
    user: folderOf("user", options),
    community: folderOf("community", options),
    config: folderOf("config", options),
  };
}

/** The folder, or the sentence saying why it cannot be known. */
function locate(folder: Folder, options: DefaultSourcesOptions): { dir: string } | { why: string } {
  try {
    return { dir: folderOf(folder, options) };
  } catch (error) {
    if (error instanceof EnvDeniedError) return { why: error.message };
    throw error;
  }
}

function folderSource(label: "user" | "community", options: DefaultSourcesOptions): SkillSource {
  const at = locate(label, options);
  return "dir" in at
    ? createStorageSource({
      label,
      storage: createFsStorage({ root: at.dir }),
      files: fsSkillFiles(at.dir),
    })
    : unavailableSource(label, at.why);
}

async function mcpSources(options: DefaultSourcesOptions): Promise<SourceTier[]> {
  const at = locate("config", options);
  if (!("dir" in at)) return [unavailableSource("mcp", at.why)];
  const connect = { stdio: stdio() };
  const registry = createServerRegistry({
    storage: createFsStorage({ root: at.dir, private: true }),
    connect,
  });
  const { fs, path } = nodeBuiltins("The MCP server registry");
  const file = path.join(at.dir, "config.toml");
  // Storage reads a folder as no value (folders are key prefixes): say so instead of no servers.
  if ((await fs.stat(file).catch(() => undefined))?.isDirectory()) {
    return [
      unavailableSource("mcp", `Cannot read the MCP server registry ${file}: it is a folder`),
    ];
  }
  try {
    const mcp: SkillSource[] = await createMcpSkillSources(registry, { connect });
    return mcp.length > 0 ? [mcp] : [];
  } catch (error) {
    // A registry that cannot be read (a missing permission, a symlink out of its folder, an I/O
    // error), or does not parse, skips only the MCP servers: the folders and built-ins answer.
    const why = error instanceof PolicyError
      ? `Skipped the MCP server registry ${file}: ${error.message}`
      : `Cannot read the MCP server registry ${file}: ${deniedMessage(error)}`;
    return [unavailableSource("mcp", why)];
  }
}

/** Sources over the user and community folders, then the registered MCP servers as one group. */
export async function fsSources(options: DefaultSourcesOptions = {}): Promise<SourceTier[]> {
  return [
    folderSource("user", options),
    folderSource("community", options),
    ...await mcpSources(options),
  ];
}

const NO = /^(?:1|true|yes|on)$/i;

/**
 * Whether the built-ins are in the chain: `options.builtin`, else not when `SKILLMUX_NO_BUILTIN`
 * says so, else `[skills] builtin` of `config.toml` (a file that cannot be read or parsed leaves
 * them on; the MCP source reports its problems), else on.
 */
export async function builtinEnabled(options: DefaultSourcesOptions = {}): Promise<boolean> {
  if (options.builtin !== undefined) return options.builtin;
  const { fs, path, env: processEnv } = nodeBuiltins("The default skill folders");
  let flag: string | undefined;
  try {
    flag = (options.env ?? processEnv).SKILLMUX_NO_BUILTIN;
  } catch (error) {
    // Deno without --allow-env: the built-ins stay, as everywhere else; other failures are errors.
    if (!isPermissionError(error)) throw error;
    flag = undefined;
  }
  if (flag !== undefined && flag !== "") return !NO.test(flag);
  const at = locate("config", options);
  if (!("dir" in at)) return true;
  const text = await fs.readFile(path.join(at.dir, "config.toml"), "utf8").catch(() => undefined);
  if (text === undefined || !/^\s*builtin\s*=/m.test(text)) return true;
  try {
    const { parse } = await import("smol-toml");
    const skills = (parse(text) as { skills?: { builtin?: unknown } }).skills;
    return skills?.builtin !== false;
  } catch {
    return true;
  }
}
