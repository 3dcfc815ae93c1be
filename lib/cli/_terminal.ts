// Private: the one way text reaches the terminal. `run()` wraps its io with `terminalIo`, so every
// line any command prints — its own words, a server's name, a skill's body, an error message, JSON —
// passes through `terminalText` on the way out, and a new command cannot forget to clean.
//
// Terminal controls are shown, not obeyed: C0 controls other than newline and tab (and a carriage
// return that ends a line), DEL and C1 (U+0080–U+009F; U+009B is a one-character CSI) are written as
// `\uXXXX`. That notation is also a valid JSON escape of the same character, so `--json` output stays
// valid JSON and parses to the same value. Colours are the CLI's own: `sgr()` gives a marker holding
// a random per-process nonce (never sent anywhere, so text from outside cannot forge it) and only
// markers become escape sequences, after the cleaning (`clearLine()` likewise, for progress lines).

// deno-lint-ignore no-control-regex
const UNSAFE = /\r(?!\n)|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

const hex = (n: number) => n.toString(16).padStart(4, "0");
const NONCE = Array.from(
  crypto.getRandomValues(new Uint8Array(8)),
  (b) => String.fromCharCode(0xe000 + b),
).join("");
const OPEN = "\uF8F0";
const CLOSE = "\uF8F1";
const MARKER = new RegExp(`${OPEN}${NONCE}(\\d{1,3}|K)${CLOSE}`, "g");

/** A marker that `terminalText` turns into the SGR escape `ESC [ code m` (a colour or style). */
export function sgr(code: number): string {
  return `${OPEN}${NONCE}${code}${CLOSE}`;
}

/**
 * A marker that `terminalText` turns into "go to the start of the line and clear it" (`CR ESC [K`):
 * how a progress line is redrawn in place. Only for a terminal.
 */
export function clearLine(): string {
  return `${OPEN}${NONCE}K${CLOSE}`;
}

const escape = (text: string) => text.replace(UNSAFE, (c) => `\\u${hex(c.charCodeAt(0))}`);

/** How many characters a terminal shows of `text` (controls escaped, no colours): column widths. */
export function visibleWidth(text: string): number {
  return escape(text).replace(MARKER, "").length;
}

/** `text` as it may reach a terminal: controls escaped as `\uXXXX`, then markers made escapes. */
export function terminalText(text: string): string {
  return escape(text).replace(
    MARKER,
    (_, code: string) => code === "K" ? "\r\x1b[K" : `\x1b[${code}m`,
  );
}

/** What `terminalIo` wraps: the writers and the question of a `CliIo`. */
interface Writers {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  ask?: (question: string, options?: { signal?: AbortSignal }) => Promise<string>;
  askSecret?: (question: string) => Promise<string>;
}

/** `io` whose stdout, stderr and questions all pass through `terminalText`. */
export function terminalIo<T extends Writers>(io: T): T {
  const ask = io.ask;
  const askSecret = io.askSecret;
  return {
    ...io,
    stdout: (text: string) => io.stdout(terminalText(text)),
    stderr: (text: string) => io.stderr(terminalText(text)),
    ...(ask
      ? {
        ask: (question: string, options?: { signal?: AbortSignal }) =>
          ask(terminalText(question), options),
      }
      : {}),
    ...(askSecret ? { askSecret: (question: string) => askSecret(terminalText(question)) } : {}),
  };
}
