/**
 * The storage key rules as plain functions that name the broken rule. Private: use
 * `assertStorageKey` and `isValidStorageKey` from `key.ts`.
 *
 * @module
 */

/** The longest key, in UTF-16 code units. */
export const MAX_KEY_LENGTH = 1024;

// deno-lint-ignore no-control-regex
const CONTROL_CHAR = /[\u0000-\u001f\u007f]/;

/** The rule `key` breaks, or `undefined` when it is a valid storage key. */
export function storageKeyProblem(key: unknown): string | undefined {
  if (typeof key !== "string") return `must be a string, not ${typeOf(key)}`;
  if (key.length === 0) return "must not be empty";
  if (key.length > MAX_KEY_LENGTH) {
    return `must be at most ${MAX_KEY_LENGTH} characters, not ${key.length}`;
  }
  const control = controlProblem(key);
  if (control !== undefined) return control;
  if (key.includes("\\")) return "backslash is not allowed";
  if (key.startsWith("/")) return "must not start with /";
  if (key.endsWith("/")) return "must not end with /";
  for (const segment of key.split("/")) {
    if (segment === "") return "empty segment (//) is not allowed";
    if (segment === "." || segment === "..") return `segment "${segment}" is not allowed`;
  }
  return undefined;
}

/** The rule a `keys`/`clear` prefix breaks: any string without control characters is fine. */
export function storagePrefixProblem(prefix: unknown): string | undefined {
  if (typeof prefix !== "string") return `must be a string, not ${typeOf(prefix)}`;
  return controlProblem(prefix);
}

/** `"x"` for strings (shortened past 80 characters), the type name for anything else. */
export function describeKey(key: unknown): string {
  if (typeof key !== "string") return typeOf(key);
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return JSON.stringify(shown).replaceAll("\u007f", "\\u007f");
}

function controlProblem(text: string): string | undefined {
  const control = CONTROL_CHAR.exec(text);
  if (!control) return undefined;
  const hex = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  return `control character U+${hex} is not allowed`;
}

function typeOf(value: unknown): string {
  return value === null ? "null" : typeof value;
}
