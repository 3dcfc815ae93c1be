// Private: finds characters outside ASCII, for the skill-name rule and its messages.

/** The first character of `text` outside ASCII (a whole code point), if any. */
export function firstNonAscii(text: string): string | undefined {
  // deno-lint-ignore no-control-regex -- the ASCII range, control characters included
  return /[^\u0000-\u007f]/u.exec(text)?.[0];
}
