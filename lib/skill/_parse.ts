// Private: what `parseSkill` (parse.ts) does once its arguments are checked — detect the layout,
// read the header, fields and sections, digest the bytes. Loaded with the first parse, together
// with the YAML or TOML reader it needs.

import type { ParsedSkill, ParseSkillOptions, Skill } from "./types.ts";
import { detectFormat, splitFrontMatter } from "./_front_matter.ts";
import { readHeader } from "./_header.ts";
import { Report } from "./_report.ts";
import { readSections } from "./_sections.ts";
import { encoder, sha256Digest } from "../_digest.ts";
import { normalizeNewlines } from "./_text.ts";
import { loadToml, readToml } from "./_toml.ts";
import { loadYaml, readYamlFields } from "./_yaml.ts";
import { isValidSkillName } from "./name.ts";
import { displayableSkill } from "./displayable.ts";

/** Read `text` as a skill of at most `maxBytes` UTF-8 bytes (see `parseSkill`). */
export async function readSkill(
  text: string,
  options: ParseSkillOptions,
  maxBytes: number,
): Promise<ParsedSkill> {
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
      {},
      undefined,
      "too-large",
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
