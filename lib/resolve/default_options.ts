/**
 * Options and folders of the zero-config resolver, apart from
 * `default_sources.ts` so that its lazily loaded fs part can use them without an import cycle.
 *
 * @module
 */

/** Options of {@linkcode createDefaultSources}, {@linkcode resolveSkill} and {@linkcode listSkills}. */
export interface DefaultSourcesOptions {
  /** Deno/Node: the user skills folder (else `$SKILLMUX_USER_SKILLS`, `$SKILLMUX_HOME/skills`, `$XDG_CONFIG_HOME/skillmux/skills`, `~/.config/skillmux/skills`). */
  userDir?: string;
  /** Deno/Node: the community skills folder (else `$SKILLMUX_COMMUNITY_SKILLS`, `$SKILLMUX_HOME/community`, `$XDG_DATA_HOME/skillmux/skills`, `~/.local/share/skillmux/skills`). */
  communityDir?: string;
  /** Deno/Node: the folder of `config.toml`, whose `[[mcp.servers]]` become MCP sources (else `$SKILLMUX_CONFIG_DIR`, `$SKILLMUX_HOME`, `$XDG_CONFIG_HOME/skillmux`, `~/.config/skillmux`). */
  configDir?: string;
  /** Deno/Node: environment variables to read instead of the process environment. */
  env?: Record<string, string | undefined>;
  /** Browser: the IndexedDB database holding user skills under `skills/` (default `skillmux`). */
  dbName?: string;
  /**
   * Include the built-in skills (the lowest tier). Default `true`, unless (Deno/Node) the
   * environment variable `SKILLMUX_NO_BUILTIN` is set to `1`/`true`/`yes`, or `config.toml` in
   * the config folder says `[skills] builtin = false`. This option wins over both.
   */
  builtin?: boolean;
}

/** The folders the zero-config resolver reads on Deno and Node. */
export interface DefaultSkillFolders {
  /** User-defined skills: the highest priority. */
  user: string;
  /** Community-installed skills. */
  community: string;
  /** The folder of `config.toml` (registered MCP servers). */
  config: string;
}
