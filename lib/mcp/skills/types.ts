/**
 * Types of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`).
 *
 * @module
 */

/** One file of a skill, with the digest and size of its raw bytes. */
export interface SkillFile {
  /** The file's resource URI. */
  uri: string;
  /** `sha256:<64 lowercase hex>` of the raw bytes. */
  digest: string;
  /** Length of the raw bytes. */
  size: number;
}

/** A `skills/list` or `skills/get` entry: a complete manifest of one skill. */
export interface SkillEntry {
  /** The URI of the skill's `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` front matter, verbatim (`name` and `description` at least). */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** Every file, `SKILL.md` included, or `"dynamic"` (no integrity). */
  resources: SkillFile[] | "dynamic";
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A `skills/list` result: the usable entries and the ones refused, with why. */
export interface SkillEntryListing {
  /** The usable entries. */
  skills: SkillEntry[];
  /** Entries that are malformed (no or bad `resources`, bad digest, over the limits, …). */
  rejected: Array<{ uri?: string; reason: string }>;
}

/** A verified `SKILL.md`, loaded from the server it belongs to. */
export interface LoadedSkill {
  /** The host's label of the server (never its self-reported name). */
  server: string;
  /** The entry it was verified against (held while acting on the skill). */
  entry: SkillEntry;
  /** The `SKILL.md` text. */
  text: string;
  /**
   * `allowed-tools` the skill asks for, kept apart: a remote skill requests tools, it never
   * grants them (SEP-2640).
   */
  requestedAllowedTools: string[];
}

/** Options of the skills calls. */
export interface SkillReadOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Load skills whose `resources` is `"dynamic"` (no integrity); refused by default. */
  allowDynamic?: boolean;
}
