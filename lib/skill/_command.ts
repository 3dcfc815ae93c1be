// Private: the rule for a program as typed at a shell (`command` in front matter, `**Command:**`
// in an example): plain words, so that `<command> <args>` never hides a second shell command.

/** The longest program text accepted, in characters. */
const COMMAND_MAX = 200;

/** One word: letters, digits and `. _ + - / = : @ % ,`, not starting with `-`. */
const COMMAND = /^[A-Za-z0-9._+/=:@%,][A-Za-z0-9._+/=:@%,-]*(?: [A-Za-z0-9._+/=:@%,-]+)*$/;

/** What is wrong with `text` as a program, or `undefined` when it is fine. */
export function commandProblem(text: string): string | undefined {
  if (text.length > COMMAND_MAX) return `is longer than ${COMMAND_MAX} characters`;
  if (COMMAND.test(text)) return undefined;
  return "must be the program as typed at a shell: words of letters, digits and . _ + - / = : @ % " +
    'separated by single spaces, not starting with "-" (e.g. "STAR" or "java -jar picard.jar")';
}

/**
 * The names a program goes by at the start of a command line: the first word
 * and the last word of `command`, each without its folder (`/usr/bin/STAR` →
 * `STAR`; `java -jar /opt/picard.jar` → `java`, `picard.jar`), lowercased.
 */
export function programNames(command: string): string[] {
  const words = command.trim().split(/\s+/).filter(Boolean);
  const base = (word: string) => word.slice(word.lastIndexOf("/") + 1).toLowerCase();
  return [...new Set([words[0], words[words.length - 1]].filter((w) => w !== undefined).map(base))];
}
