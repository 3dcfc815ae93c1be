// Private: cleaning text that came from elsewhere before it reaches a prompt, and spotting text
// that tries to address the model. Shared ground: the catalog, prompt assembly and the CLI use it.

/**
 * Characters that render as nothing or reorder text: format characters (zero-width spaces and
 * joiners, bidirectional controls, Unicode tag characters U+E0000–E007F), control characters
 * other than tab and newline, and variation selectors (which can smuggle bytes).
 */
// deno-lint-ignore no-control-regex
const HIDDEN = /[\p{Cf}\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** How many hidden characters `text` holds. */
export function countHidden(text: string): number {
  return text.match(HIDDEN)?.length ?? 0;
}

/** `text` without hidden characters, keeping newlines and tabs. */
export function stripHidden(text: string): string {
  return text.replace(HIDDEN, "");
}

/** One clean line: hidden characters removed, whitespace runs collapsed, at most `max` characters. */
export function cleanLine(text: string, max: number): string {
  const line = stripHidden(text).replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  // Cut at max - 1 code units, never inside a surrogate pair (a lone half is invalid text that
  // an API may refuse), then mark the cut.
  const cut = line.slice(0, max - 1);
  return `${(/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd()}…`;
}

/** The first sentence of a cleaned line, when the line is long. */
export function firstSentence(line: string, max: number): string {
  if (line.length <= max) return line;
  const end = line.search(/[.!?](\s|$)/);
  return cleanLine(end > 0 && end < max ? line.slice(0, end + 1) : line, max);
}

/** Phrases that address the model rather than describe a tool or a task. */
const ADDRESSING: ReadonlyArray<[RegExp, string]> = [
  [
    /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|system|other)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|messages?|directions)\b/i,
    "asks the model to ignore its instructions",
  ],
  [/\byou are (now|no longer)\b/i, "tries to redefine the model's role"],
  [/\b(new|updated|real|true) (system )?instructions?\b/i, "claims to carry new instructions"],
  [/<\/?\s*(system|instructions?|assistant|important)\s*>/i, "contains prompt-like tags"],
  [/\b(system prompt|developer message)\b/i, "mentions the system prompt"],
  [
    /\b(do not|don't|never) (tell|inform|mention|reveal)\b[^.\n]{0,30}\buser\b/i,
    "asks to hide things from the user",
  ],
  [
    /\b(before|instead of) (using|calling) (any|this|other) tools?\b/i,
    "tries to steer other tool use",
  ],
];

/** Why `text` looks like it addresses the model (empty when it does not). */
export function addressesModel(text: string): string[] {
  const found = ADDRESSING.filter(([pattern]) => pattern.test(text)).map(([, why]) => why);
  const hidden = countHidden(text);
  if (hidden > 0) found.push(`holds ${hidden} hidden character${hidden === 1 ? "" : "s"}`);
  return found;
}
