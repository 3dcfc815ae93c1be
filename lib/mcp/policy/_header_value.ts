// Private: the rules for a header value, shared by custom headers and the API key.

/**
 * The longest header value accepted, in bytes (values are Latin-1: one byte per character).
 *
 * @example
 * ```ts
 * import { MAX_HEADER_VALUE_BYTES } from "@skillmux/core/policy";
 * console.log(MAX_HEADER_VALUE_BYTES); // 8192
 * ```
 */
export const MAX_HEADER_VALUE_BYTES = 8192;

/**
 * The most custom headers of one server may take in total, in bytes, counted as sent
 * (`Name: value` plus CRLF per header). Node's HTTP server answers 431 past 16 KiB of request
 * headers, so this leaves room for the transport's own headers and the API key.
 *
 * @example
 * ```ts
 * import { MAX_HEADERS_TOTAL_BYTES } from "@skillmux/core/policy";
 * console.log(MAX_HEADERS_TOTAL_BYTES); // 12288
 * ```
 */
export const MAX_HEADERS_TOTAL_BYTES = 12 * 1024;

/** What is wrong with `value` as a header value (phrased to follow "the value …"), if anything. */
export function headerValueProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "is not a string";
  if (/[\r\n]/.test(value)) {
    return "contains a line break (CR or LF), which would inject headers: put it on one line";
  }
  if (value.includes("\0")) return "contains a NUL character: remove it";
  // deno-lint-ignore no-control-regex
  if (/[\x01-\x08\x0b-\x1f\x7f]/.test(value)) return "contains a control character: remove it";
  if (/[\u0100-\uffff]/.test(value)) {
    return "contains characters outside Latin-1 (such as emoji or non-Latin letters): " +
      "percent-encode or base64-encode it";
  }
  if (value.length > MAX_HEADER_VALUE_BYTES) {
    return `is longer than ${MAX_HEADER_VALUE_BYTES} bytes: shorten it`;
  }
  return undefined;
}

/** Trim the optional whitespace (spaces and tabs) HTTP ignores around a value. */
export function trimHeaderValue(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}
