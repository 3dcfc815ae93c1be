// Private: finds the layout of a skill text and splits Markdown front matter.

import type { Report } from "./_report.ts";
import { encoder } from "../_digest.ts";
import { isBlank } from "./_text.ts";

/** The largest front-matter block parsed, in UTF-8 bytes. */
export const FRONT_MATTER_MAX_BYTES = 64 * 1024;

const OPEN = /^---[ \t]*$/;
const OPEN_WITH_LANGUAGE = /^---[ \t]*([^\s-]\S*)[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
const TOML_META = /^[ \t]*\[[ \t]*meta[ \t]*\][ \t]*(?:#.*)?$/m;

/** The format a text is in, decided from its first non-blank line. */
export function detectFormat(
  lines: readonly string[],
  requested: "auto" | "markdown" | "toml",
  report: Report,
): "markdown" | "toml" {
  if (requested === "toml") return "toml";
  const first = lines.findIndex((line) => !isBlank(line));
  const line = first === -1 ? 1 : first + 1;
  const head = first === -1 ? "" : lines[first]!;
  if (OPEN.test(head)) return "markdown";
  const language = OPEN_WITH_LANGUAGE.exec(head)?.[1];
  if (language !== undefined) {
    report.fail(
      `front matter language ${JSON.stringify(language)} is not supported; use YAML ` +
        `with an opening line of exactly "---"`,
      { line },
    );
  }
  if (requested === "auto" && TOML_META.test(lines.join("\n"))) return "toml";
  report.fail(
    requested === "auto"
      ? 'expected front matter: the text must start with a "---" line ' +
        "(or be a legacy TOML skill with a [meta] table)"
      : 'expected front matter: the text must start with a "---" line',
    { line },
  );
}

/** Front matter and body of a Markdown skill, with the lines they start at. */
export interface FrontMatterSplit {
  /** The YAML between the fences, LF-terminated. */
  yaml: string;
  /** 1-based line of the original text where the YAML starts. */
  yamlLine: number;
  /** Everything after the closing fence. */
  body: string;
  /** 1-based line of the original text where the body starts. */
  bodyLine: number;
}

/** Splits normalised `lines` whose first non-blank line is `---`. */
export function splitFrontMatter(lines: readonly string[], report: Report): FrontMatterSplit {
  const open = lines.findIndex((line) => !isBlank(line));
  let bytes = 0;
  for (let i = open + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (CLOSE.test(line)) {
      return {
        yaml: lines.slice(open + 1, i).map((l) => `${l}\n`).join(""),
        yamlLine: open + 2,
        body: lines.slice(i + 1).join("\n"),
        bodyLine: i + 2,
      };
    }
    bytes += (line.length > FRONT_MATTER_MAX_BYTES ? line.length : encoder.encode(line).length) + 1;
    if (bytes > FRONT_MATTER_MAX_BYTES) {
      report.fail(
        `front matter is larger than ${FRONT_MATTER_MAX_BYTES} bytes`,
        { line: open + 1 },
        undefined,
        "too-large",
      );
    }
  }
  return report.fail('front matter is not closed: expected a line "---" after it', {
    line: open + 1,
  });
}
