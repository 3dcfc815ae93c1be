/**
 * Read a skill from text: Agent Skills `SKILL.md`, the Concepts/Pitfalls/Examples
 * Markdown format, or the legacy TOML layout.
 *
 * @module
 */

import type { Skill, SkillDiagnostic } from "./types.ts";
import { isSkillParseError, type SkillParseError } from "./errors.ts";
import { detectFormat, splitFrontMatter } from "./_front_matter.ts";
import { readHeader } from "./_header.ts";
import { Report } from "./_report.ts";
import { readSections } from "./_sections.ts";
import { encoder, normalizeNewlines, sha256Digest } from "./_text.ts";
import { loadToml, readToml } from "./_toml.ts";
import { loadYaml, readYamlFields } from "./_yaml.ts";
import { isValidSkillName } from "./name.ts";
import { displayableSkill } from "./_displayable.ts";

/**
 * The default size cap of {@linkcode parseSkill}: 256 KiB of UTF-8.
 *
 * @example Raise the cap for one call
 * ```ts
 * import { DEFAULT_SKILL_MAX_BYTES, parseSkill } from "@skillmux/core";
 * const text = "---\nname: demo\ndescription: Demo. Use when testing.\n---\n";
 * await parseSkill(text, { maxBytes: 4 * DEFAULT_SKILL_MAX_BYTES });
 * ```
 */
export const DEFAULT_SKILL_MAX_BYTES = 262_144;

/** Options of {@linkcode parseSkill} and {@linkcode safeParseSkill}. */
export interface ParseSkillOptions {
  /** The name the caller expects, e.g. from the file or folder name. */
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

/** What {@linkcode parseSkill} returns: the skill and any warnings. */
export interface ParsedSkill {
  /** The skill read. */
  skill: Skill;
  /** Warnings found on the way (a lenient parse never returns errors). */
  diagnostics: SkillDiagnostic[];
}

/** What {@linkcode safeParseSkill} returns: a skill, or the parse error. */
export type SafeParseSkillResult =
  | { success: true; skill: Skill; diagnostics: SkillDiagnostic[] }
  | { success: false; error: SkillParseError };

/**
 * Reads a skill from `text`. YAML is parsed with the core schema only (no
 * code execution, no custom types); `---js` style front matter is refused,
 * alias bombs, duplicate keys and oversized input fail fast. Lenient by
 * default: problems a reader can live with come back as warnings.
 *
 * @param text The whole file, as given (the digest covers these exact bytes).
 * @param options The expected name, a source label, strictness, format and size cap.
 * @returns The skill and its warnings.
 * @throws {SkillParseError} When the text is not a usable skill.
 *
 * @example Parse a SKILL.md
 * ```ts
 * import { parseSkill } from "@skillmux/core";
 * const text = "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n# Demo\n";
 * const { skill, diagnostics } = await parseSkill(text, { name: "demo", source: "demo/SKILL.md" });
 * console.log(skill.name, skill.body, diagnostics.length); // "demo" "# Demo\n" 0
 * ```
 */
export async function parseSkill(
  text: string,
  options: ParseSkillOptions = {},
): Promise<ParsedSkill> {
  if (typeof text !== "string") {
    throw new TypeError(`Cannot parse skill: expected the text as a string, got ${typeof text}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_SKILL_MAX_BYTES;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new RangeError(
      `Cannot parse skill: maxBytes must be a positive integer, got ${maxBytes}`,
    );
  }
  const report: Report = new Report(
    options.source,
    options.strict === true,
    isValidSkillName(options.name) ? options.name : undefined,
  );
  // Every UTF-16 unit is at least one UTF-8 byte: refuse long text before encoding it.
  const bytes = text.length > maxBytes ? undefined : encoder.encode(text);
  if (bytes === undefined || bytes.length > maxBytes) {
    report.fail(
      `the text is ${bytes?.length ?? `more than ${maxBytes}`} bytes; the limit is ${maxBytes} ` +
        "bytes (maxBytes)",
    );
  }
  const normal = normalizeNewlines(text);
  const lines = normal.split("\n");
  const format = detectFormat(lines, options.format ?? "auto", report);
  let skill: Omit<Skill, "digest">;
  if (format === "toml") {
    await loadToml();
    const toml = readToml(normal, report);
    const header = readHeader(toml.fields, report, options.name);
    skill = { ...header, format, ...toml.sections, body: "" };
  } else {
    const split = splitFrontMatter(lines, report);
    await loadYaml();
    const { fields, warnings } = readYamlFields(split, report);
    const header = readHeader(fields, report, options.name);
    for (const { detail, at } of warnings) report.warn(detail, at);
    const sections = readSections(split.body, split.bodyLine, report);
    skill = { ...header, format, ...sections, body: split.body };
  }
  report.finish();
  return {
    skill: displayableSkill({ ...skill, digest: await sha256Digest(bytes) }),
    diagnostics: report.diagnostics,
  };
}

/**
 * The non-throwing twin of {@linkcode parseSkill}: a {@linkcode SkillParseError}
 * comes back as `{ success: false, error }`. Other errors (a bad argument) still throw.
 *
 * @param text The whole file, as given.
 * @param options As for {@linkcode parseSkill}.
 * @returns `{ success: true, skill, diagnostics }` or `{ success: false, error }`.
 *
 * @example Skip broken skills while loading many
 * ```ts
 * import { safeParseSkill } from "@skillmux/core";
 * const result = await safeParseSkill("---\nname: x\n---\n", { source: "x.md" });
 * if (!result.success) console.log(result.error.message);
 * ```
 */
export async function safeParseSkill(
  text: string,
  options: ParseSkillOptions = {},
): Promise<SafeParseSkillResult> {
  try {
    const { skill, diagnostics } = await parseSkill(text, options);
    return { success: true, skill, diagnostics };
  } catch (error) {
    if (isSkillParseError(error)) return { success: false, error };
    throw error;
  }
}
