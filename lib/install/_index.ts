// Private: read and check a registry index. Bad entries are left out with a reason, so one broken
// entry (or a name listed twice) never decides what another name installs.

import * as v from "valibot";
import { normalizeSkillName } from "../skill/name.ts";
import { InstallError } from "./errors.ts";
import type { IndexProblem, RegistryEntry, RegistryIndex } from "./types.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** A relative path of plain segments: no `.`/`..`, no leading `/`, no backslash. */
const FILE_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
const MAX_FILES = 100;

const FileSchema = v.object({
  path: v.pipe(
    v.string(),
    v.maxLength(200),
    v.regex(FILE_PATH, "must be a relative path of plain segments"),
    v.check((path) => path !== "SKILL.md", "must not be SKILL.md (that is the skill document)"),
  ),
  url: v.pipe(v.string(), v.minLength(1)),
  digest: v.pipe(v.string(), v.regex(DIGEST, "must be sha256:<64 lowercase hex>")),
});

const EntrySchema = v.object({
  name: v.string(),
  description: v.pipe(v.string(), v.maxLength(1024)),
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  digest: v.pipe(v.string(), v.regex(DIGEST, "must be sha256:<64 lowercase hex>")),
  url: v.pipe(v.string(), v.minLength(1)),
  files: v.optional(v.pipe(v.array(FileSchema), v.maxLength(MAX_FILES))),
});

const IndexSchema = v.object({ skills: v.array(v.unknown()) });

/**
 * Why files at `paths` cannot all be placed in one folder, or `undefined`: a path listed twice, or
 * a path that is also a folder of another (`scripts` and `scripts/run.py`), the skill document
 * `SKILL.md` included. Compared ignoring case, as the file systems of macOS and Windows do.
 */
function fileClash(paths: readonly string[]): string | undefined {
  const seen = new Map<string, string>([["skill.md", "SKILL.md"]]);
  for (const path of paths) {
    const key = path.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      return earlier === path
        ? `the file ${path} is listed twice`
        : `the files ${earlier} and ${path} differ only in case`;
    }
    seen.set(key, path);
  }
  for (const [key, path] of seen) {
    for (const [other, inner] of seen) {
      if (other.startsWith(`${key}/`)) {
        return `the file ${path} is also a folder of ${inner}; a path cannot be both`;
      }
    }
  }
  return undefined;
}

/** The entries of the index text `bytes` read from `url`. */
export function readIndex(bytes: Uint8Array, url: string): RegistryIndex {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new InstallError("invalid-index", `The registry index ${url} is not valid JSON`, {
      url,
      cause: error,
    });
  }
  const top = v.safeParse(IndexSchema, json);
  if (!top.success) {
    throw new InstallError(
      "invalid-index",
      `The registry index ${url} must be an object with a "skills" array`,
      { url },
    );
  }
  const problems: IndexProblem[] = [];
  const byName = new Map<string, { entry: RegistryEntry; index: number }>();
  const twice = new Set<string>();
  top.output.skills.forEach((raw, index) => {
    const given = (raw as { name?: unknown } | null)?.name;
    const name = typeof given === "string" ? given : undefined;
    const parsed = v.safeParse(EntrySchema, raw);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
      return problems.push({
        name,
        index,
        message: `entry ${index + 1}${name ? ` ("${name}")` : ""}: ${
          where ? `${where} ` : ""
        }${issue.message}`,
      });
    }
    const entry = parsed.output as RegistryEntry;
    let canonical: string | undefined;
    try {
      canonical = normalizeSkillName(entry.name);
    } catch (error) {
      return problems.push({
        name,
        index,
        message: `entry ${index + 1}: ${(error as Error).message}`,
      });
    }
    if (canonical !== entry.name) {
      return problems.push({
        name,
        index,
        message: `entry ${index + 1}: the name ${JSON.stringify(entry.name)} must be written ` +
          `${JSON.stringify(canonical)}`,
      });
    }
    const earlier = byName.get(entry.name);
    if (earlier !== undefined || twice.has(entry.name)) {
      twice.add(entry.name);
      byName.delete(entry.name);
      return problems.push({
        name,
        index,
        message: `"${entry.name}" is listed more than once (entries ${
          earlier ? `${earlier.index + 1} and ` : ""
        }${index + 1}); it cannot be installed from this index until one is removed`,
      });
    }
    const clash = fileClash((entry.files ?? []).map((f) => f.path));
    if (clash !== undefined) {
      return problems.push({
        name,
        index,
        message: `entry ${index + 1} ("${entry.name}"): ${clash}`,
      });
    }
    byName.set(entry.name, { entry, index });
  });
  const skills = new Map([...byName].map(([name, { entry }]) => [name, entry]));
  return { url, skills, problems };
}
