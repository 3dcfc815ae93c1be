/**
 * Storage key ⇄ file name mapping of the fs adapter. Each key segment becomes one file or folder
 * name; only what is unsafe in a file name is percent-encoded (`%XX`, uppercase hex): `%` itself,
 * `:*?"<>|`, a leading `.` (so hidden files are never keys and `.`/`..` cannot arise) and a
 * trailing `.` or space (Windows drops them). Everything else, Unicode included, stays literal.
 *
 * @module
 */

import { isValidStorageKey } from "./key.ts";

const UNSAFE = /[%:*?"<>|]/g;
const ESCAPE = /%([0-9A-F]{2})/g;
const LONE_SURROGATE = /\p{Cs}/u;

/** `%XX` for one character (all encoded characters are ASCII). */
function percent(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
}

/** The file or folder name for one key segment. */
export function encodeSegment(segment: string): string {
  let name = segment.replace(UNSAFE, percent);
  if (name.startsWith(".")) name = `%2E${name.slice(1)}`;
  const last = name.at(-1);
  if (last === "." || last === " ") name = `${name.slice(0, -1)}${percent(last)}`;
  return name;
}

/**
 * The key segment a file or folder name stands for, or `undefined` when the name is not an
 * encoding this adapter writes (hidden files, temp files, `%41`, a stray `%`, ...).
 */
export function decodeName(name: string): string | undefined {
  if (name.startsWith(".")) return undefined;
  const segment = name.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return encodeSegment(segment) === name ? segment : undefined;
}

/** The file names for a (valid) key, one per segment. */
export function keyToNames(key: string): string[] {
  return key.split("/").map(encodeSegment);
}

/** The key for a folder key (or `""` for the root) plus one more file name, if valid. */
export function childKey(parent: string, name: string): string | undefined {
  const segment = decodeName(name);
  if (segment === undefined) return undefined;
  const key = parent === "" ? segment : `${parent}/${segment}`;
  return isValidStorageKey(key) ? key : undefined;
}

/** Why a valid storage key still cannot be a file name here, if it cannot. */
export function fileNameProblem(key: string): string | undefined {
  return LONE_SURROGATE.test(key) ? "lone surrogates cannot be stored in file names" : undefined;
}

/** Whether `text` is well-formed UTF-16 (no lone surrogates), so UTF-8 can hold it exactly. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
