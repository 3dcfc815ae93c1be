/**
 * The data model of a skill: what {@linkcode parseSkill} returns and
 * {@linkcode renderSkill} writes back.
 *
 * @module
 */

/** The on-disk layout a skill was read from. */
export type SkillFormat = "markdown" | "toml";

/** One worked example of the Concepts/Pitfalls/Examples format. */
export interface SkillExample {
  /** What the user wants done, e.g. `Sort a BAM file by coordinate`. */
  task: string;
  /** The command-line arguments that do it, without surrounding backticks. */
  args: string;
  /** Why those arguments, in one or two sentences. */
  explanation: string;
  /**
   * The program this one example runs instead of the skill's
   * {@linkcode Skill.command} (a companion such as `hisat2-build`), from a
   * `**Command:**` line; absent for most examples.
   */
  command?: string;
}

/**
 * A parsed skill. Fields of both formats in use (Agent Skills `SKILL.md` and the
 * Concepts/Pitfalls/Examples format) live side by side; absent optional fields
 * are `undefined` and absent lists are empty.
 *
 * @example Read the fields of a parsed skill
 * ```ts
 * import { parseSkill } from "@skillmux/core/skill";
 * const { skill } = await parseSkill("---\nname: demo\ndescription: Demo skill. Use when testing.\n---\nBody\n");
 * console.log(skill.name, skill.description, skill.digest);
 * ```
 */
export interface Skill {
  /**
   * 1–64 characters: lowercase letters, digits and single `-` inside. When the front matter's
   * `name` is not a valid name or differs from the file or folder name, a lenient parse loads the
   * skill under the folder's name (see `declaredName`).
   */
  name: string;
  /**
   * The front matter's `name` as written, when the skill loaded under another name: a display
   * name (`Ahrefs Automation`) or a name that differs from its folder. Absent otherwise.
   */
  declaredName?: string;
  /** What the skill does and when to use it. */
  description: string;
  /** The layout it was read from. */
  format: SkillFormat;
  /** Concepts/Pitfalls/Examples: a category such as `alignment`. */
  category?: string;
  /** Concepts/Pitfalls/Examples: search tags. */
  tags: string[];
  /** Concepts/Pitfalls/Examples: who wrote it. */
  author?: string;
  /** Concepts/Pitfalls/Examples: the tool's documentation (`source_url`). */
  sourceUrl?: string;
  /** Oldest tool version the skill applies to (`min_version`). */
  minVersion?: string;
  /** Newest tool version the skill applies to (`max_version`). */
  maxVersion?: string;
  /**
   * The program the examples run, exactly as typed at a shell (`command`), e.g.
   * `STAR`, `featureCounts` or `java -jar picard.jar`. Absent when the program
   * is the skill name; {@linkcode exampleCommandLine} applies that default.
   */
  command?: string;
  /** The tool version whose help or manual the examples were checked against (`checked_version`). */
  checkedVersion?: string;
  /** Agent Skills: a license name or bundled file name. */
  license?: string;
  /** Agent Skills: environment requirements. */
  compatibility?: string;
  /** Agent Skills: string-to-string metadata map. */
  metadata: Record<string, string>;
  /** Agent Skills: `allowed-tools`, split on spaces. */
  allowedTools: string[];
  /** Bullets of the `## Concepts` section. */
  concepts: string[];
  /** Bullets of the `## Pitfalls` section. */
  pitfalls: string[];
  /** Entries of the `## Examples` section. */
  examples: SkillExample[];
  /** The Markdown body after the front matter, line endings normalised to `\n`. */
  body: string;
  /** Front-matter keys this library does not know, kept as parsed (never on a prototype). */
  meta: Record<string, unknown>;
  /** `sha256:<64 hex>` of the UTF-8 bytes of the text that was parsed, exactly as given. */
  digest: string;
}

/** A problem found while reading or checking a skill. */
export interface SkillDiagnostic {
  /** `error` stops a strict parse; `warning` never does. */
  severity: "error" | "warning";
  /** A sentence naming the skill and what was expected, e.g. `Skill "x": "tags" must be a list of strings`. */
  message: string;
  /** The skill name, when known. */
  skill?: string;
  /** Where the text came from (a file path, URL or label), when the caller said. */
  source?: string;
  /** 1-based line in the original text, when known. */
  line?: number;
  /** The front-matter field or section concerned, when there is one. */
  field?: string;
}

/** Options of `parseSkill` and `safeParseSkill`. */
export interface ParseSkillOptions {
  /**
   * The name the file or folder gives the skill (`x` for `x.md` or `x/SKILL.md`). A lenient parse
   * loads the skill under it when the front matter's `name` is missing, not a valid name or
   * different (with a warning; an error when `strict`).
   */
  name?: string;
  /** A file path or label, used in messages. */
  source?: string;
  /** Turn every warning into an error. Default `false`. */
  strict?: boolean;
  /** The layout to read. Default `"auto"`: `---` front matter or a TOML `[meta]` table. */
  format?: "auto" | "markdown" | "toml";
  /** The largest text accepted, in UTF-8 bytes, checked before any parsing. Default 256 KiB. */
  maxBytes?: number;
}

/** What `parseSkill` returns: the skill and any warnings. */
export interface ParsedSkill {
  /** The skill read. */
  skill: Skill;
  /** Warnings found on the way (a lenient parse never returns errors). */
  diagnostics: SkillDiagnostic[];
}
