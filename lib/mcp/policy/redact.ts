/**
 * Secret redaction for error messages, diagnostics and logs.
 *
 * @module
 */

/**
 * What {@linkcode redact} puts in place of a secret.
 *
 * @example
 * ```ts
 * import { REDACTED, redact } from "@skillmux/core/policy";
 * console.log(redact("key sk-123456", ["sk-123456"]) === `key ${REDACTED}`); // true
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * Secrets shorter than this are not redacted (they would mangle ordinary text).
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH, redact } from "@skillmux/core/policy";
 * console.log(MIN_SECRET_LENGTH, redact("abc", ["abc"])); // 4 "abc"
 * ```
 */
export const MIN_SECRET_LENGTH = 4;

const BEARER = /\bBearer[ \t]+([A-Za-z0-9\-._~+/]{8,}=*)/gi;
const BEARER_CUT = /\bBearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;

/** Options of {@linkcode redact}. */
export interface RedactOptions {
  /**
   * The text was cut short at its end (a read limit): a trailing fragment that begins a secret
   * (or a `Bearer` token) is redacted too, so no part of a secret survives the cut.
   */
  truncated?: boolean;
}

/** The spellings a secret takes in URLs, forms and JSON, besides itself. */
function variants(secret: string): string[] {
  const out = new Set([secret]);
  const uri = encodeURIComponent(secret);
  out.add(uri);
  out.add(uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  out.add(uri.replace(/%20/g, "+"));
  out.add(encodeURI(secret));
  out.add(JSON.stringify(secret).slice(1, -1));
  return [...out];
}

/**
 * Replace every secret in `text` with `[redacted]`. Catches each secret as
 * given, percent-encoded (upper- or lower-case hex, `+` for spaces),
 * JSON-escaped, and any `Bearer <token>` of 8 or more characters (even a token not in
 * `secrets`).
 * Secrets shorter than {@linkcode MIN_SECRET_LENGTH} are left alone.
 * Overlapping occurrences are merged into one `[redacted]`, so no part of a
 * secret is left between two markers. With `truncated`, a fragment at the end
 * that begins a secret is redacted as well.
 *
 * @example
 * ```ts
 * import { redact } from "@skillmux/core/policy";
 * console.log(redact("Bearer sk-123 failed", ["sk-123"])); // "Bearer [redacted] failed"
 * console.log(redact("GET /?key=a%2Fb%3Dc", ["a/b=c"])); // "GET /?key=[redacted]"
 * console.log(redact("key sk-12", ["sk-123"], { truncated: true })); // "key [redacted]"
 * ```
 */
export function redact(
  text: string,
  secrets: readonly string[],
  options: RedactOptions = {},
): string {
  const needles = [...new Set(secrets)]
    .filter((secret) => typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH)
    .flatMap(variants);
  const out = redactWhole(text, needles);
  return options.truncated ? redactCut(out, needles) : out;
}

/** Redact a trailing fragment of `text` that begins one of `needles` or a Bearer token. */
function redactCut(text: string, needles: readonly string[]): string {
  let cut = text.length;
  for (const needle of needles) {
    for (let k = Math.min(needle.length - 1, text.length); k > 0 && text.length - k < cut; k--) {
      if (text.endsWith(needle.slice(0, k))) {
        cut = text.length - k;
        break;
      }
    }
  }
  const bearer = BEARER_CUT.exec(text);
  if (bearer) cut = Math.min(cut, text.length - bearer[1].length);
  if (cut === text.length) return text;
  const head = text.slice(0, cut);
  return head.endsWith(REDACTED) ? head : head + REDACTED;
}

function redactWhole(text: string, needles: readonly string[]): string {
  const spans: Array<[number, number]> = [];
  for (const needle of needles) {
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      spans.push([at, at + needle.length]);
    }
  }
  for (const match of text.matchAll(BEARER)) {
    const start = match.index! + match[0].length - match[1].length;
    spans.push([start, start + match[1].length]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let cursor = 0;
  let [start, end] = spans[0];
  for (const [s, e] of spans.slice(1)) {
    if (s <= end) {
      end = Math.max(end, e);
      continue;
    }
    out += text.slice(cursor, start) + REDACTED;
    cursor = end;
    [start, end] = [s, e];
  }
  return out + text.slice(cursor, start) + REDACTED + text.slice(end);
}
