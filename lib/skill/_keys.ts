// Private: the front-matter keys with a meaning, and how `allowed-tools` splits, shared by the
// reader (_header.ts, loaded with the first parse) and the writer (render.ts), so that a page that
// renders or lints skills does not load the reader.

/** Every front-matter key with a meaning, in the order {@linkcode renderSkill} writes them. */
export const KNOWN_KEYS: readonly string[] = [
  "name",
  "description",
  "category",
  "tags",
  "author",
  "source_url",
  "command",
  "checked_version",
  "min_version",
  "max_version",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];

/**
 * `allowed-tools` written as one string: entries separated by spaces (the specification) or
 * commas (as some hosts accept), never inside parentheses (`Bash(git commit:*)` is one entry).
 */
export function splitTools(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")" && depth > 0) depth--;
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current !== "") out.push(current);
      current = "";
    } else current += char;
  }
  if (current !== "") out.push(current);
  return out;
}
