// Private, Deno/Node only: the user and community skill folders of the zero-config resolver.
// default_sources.ts loads it lazily, so browser bundles keep it in a chunk they never fetch.

import { nodeBuiltins } from "../_node.ts";
import { createFsStorage } from "../storage/fs.ts";
import { createServerRegistry } from "../mcp/registry/registry.ts";
import { stdio } from "../mcp/transport/stdio.ts";
import { createMcpSkillSources } from "./mcp_source.ts";
import { createStorageSource } from "./storage_source.ts";
import type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";
import type { SkillSource, SourceTier } from "./types.ts";

/** The user and community skill folders, after options and environment variables. */
export function skillFolders(options: DefaultSourcesOptions = {}): DefaultSkillFolders {
  const { path, os, env: processEnv } = nodeBuiltins("The default skill folders");
  const env = options.env ?? processEnv;
  const home = () => env.HOME || os.homedir();
  const base = env.SKILLMUX_HOME;
  const user = options.userDir ?? (env.SKILLMUX_USER_SKILLS ||
    (base
      ? path.join(base, "skills")
      : path.join(env.XDG_CONFIG_HOME || path.join(home(), ".config"), "skillmux", "skills")));
  const community = options.communityDir ?? (env.SKILLMUX_COMMUNITY_SKILLS ||
    (base ? path.join(base, "community") : path.join(
      env.XDG_DATA_HOME || path.join(home(), ".local", "share"),
      "skillmux",
      "skills",
    )));
  const config = options.configDir ?? (env.SKILLMUX_CONFIG_DIR ||
    (base ? base : path.join(env.XDG_CONFIG_HOME || path.join(home(), ".config"), "skillmux")));
  return { user, community, config };
}

/** Sources over the user and community folders, then the registered MCP servers as one group. */
export async function fsSources(options: DefaultSourcesOptions = {}): Promise<SourceTier[]> {
  const folders = skillFolders(options);
  const connect = { stdio: stdio() };
  const registry = createServerRegistry({
    storage: createFsStorage({ root: folders.config, private: true }),
    connect,
  });
  const mcp: SkillSource[] = await createMcpSkillSources(registry, { connect });
  return [
    createStorageSource({ label: "user", storage: createFsStorage({ root: folders.user }) }),
    createStorageSource({
      label: "community",
      storage: createFsStorage({ root: folders.community }),
    }),
    ...(mcp.length > 0 ? [mcp] : []),
  ];
}
