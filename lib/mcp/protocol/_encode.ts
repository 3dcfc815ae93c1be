// Private: the value encoding of 2026-07-28 request headers that mirror the body (`Mcp-Name`,
// `Mcp-Param-*`): plain visible ASCII as is, anything else as `=?base64?…?=` (SEP-2243).

const SAFE = /^[\x20-\x7E]*$/;
const SENTINEL = /^=\?base64\?.*\?=$/;

/** A header value: as is when it is plain visible ASCII, else `=?base64?…?=` (UTF-8). */
export function encodeHeaderValue(value: string): string {
  if (SAFE.test(value) && value.trim() === value && !SENTINEL.test(value)) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
