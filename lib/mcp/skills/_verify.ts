// Private: SEP-2640 checks — entry shape and limits, and each read against its entry's size,
// digest and (for SKILL.md) front matter, field by field.

import { SkillVerificationError } from "../protocol/errors.ts";
import type { SkillEntry, SkillFile } from "./types.ts";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from "./extension.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why an entry is unusable, or `undefined` when it is fine. */
export function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry) || typeof entry.uri !== "string") return "no uri";
  const front = entry.frontmatter;
  if (!isObject(front) || typeof front.name !== "string" || typeof front.description !== "string") {
    return "frontmatter lacks name or description";
  }
  // The skill's name is the URI's last folder (SEP-2640); a front matter that names it otherwise
  // (a display name, a mismatch) is loaded under that folder name, as a folder on disk is.
  if (!/\/[^/]+\/SKILL\.md$/.test(entry.uri)) return "uri does not end in /<name>/SKILL.md";
  if (entry.resources === "dynamic") return undefined;
  if (!Array.isArray(entry.resources)) return "resources is missing or malformed";
  const root = entry.uri.slice(0, -"SKILL.md".length);
  let total = 0;
  const seen = new Set<string>();
  for (const file of entry.resources as unknown[]) {
    if (!isObject(file) || typeof file.uri !== "string") return "a resource has no uri";
    if (typeof file.digest !== "string" || !DIGEST.test(file.digest)) {
      return `${file.uri}: digest is not sha256:<64 lowercase hex>`;
    }
    if (!Number.isSafeInteger(file.size) || (file.size as number) < 0) {
      return `${file.uri}: bad size`;
    }
    if (!file.uri.startsWith(root) || seen.has(file.uri)) {
      return `${file.uri}: outside the skill or listed twice`;
    }
    seen.add(file.uri);
    total += file.size as number;
  }
  if (!seen.has(entry.uri)) return "resources does not list SKILL.md";
  if (seen.size > MAX_SKILL_FILES) return `more than ${MAX_SKILL_FILES} files`;
  if (total > MAX_SKILL_BYTES) return `more than ${MAX_SKILL_BYTES} bytes`;
  return undefined;
}

/** The listed file `uri` of `entry`, or a verification failure (`unlisted`). */
export function listedFile(entry: SkillEntry, uri: string, server: string): SkillFile {
  const file = entry.resources === "dynamic"
    ? undefined
    : entry.resources.find((item) => item.uri === uri);
  if (file === undefined) {
    throw new SkillVerificationError("unlisted", uri, `${uri} is not listed in the skill's entry`, {
      server,
    });
  }
  return file;
}

/** Check `bytes` against the entry's size and digest; throws `SkillVerificationError`. */
export async function verifyBytes(
  file: SkillFile,
  bytes: Uint8Array,
  server: string,
): Promise<void> {
  if (bytes.byteLength !== file.size) {
    throw new SkillVerificationError(
      "size",
      file.uri,
      `${file.uri} is ${bytes.byteLength} bytes; its entry says ${file.size}`,
      { server },
    );
  }
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  const hex = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
  if (`sha256:${hex}` !== file.digest) {
    throw new SkillVerificationError("digest", file.uri, `${file.uri} does not match its digest`, {
      server,
    });
  }
}

/** Deep equality of JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}
