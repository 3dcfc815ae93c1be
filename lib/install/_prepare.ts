// Private, Deno/Node only: one skill checked and read for installing, before anything is
// written. The verdict is the parser's (lenient: the folder's name wins, with warnings); the
// folder is walked by the one file rule with symlinks and the caps refused, and every file is
// read and digested. A skill that fails any check comes back refused, with the reason.

import { nodeBuiltins } from "../_node.ts";
import { isSkillParseError } from "../skill/errors.ts";
import { SKILL_FOLDER_LIMITS } from "../skill/files.ts";
import { isValidSkillName } from "../skill/name.ts";
import { parseSkill } from "../skill/parse.ts";
import type { Skill, SkillDiagnostic } from "../skill/types.ts";
import { FolderRefusedError, walkSkillFolder } from "../resolve/fs_folder.ts";
import { sha256Hex } from "./_download.ts";
import type { FoundSkill } from "./discover.ts";

/** A skill ready to be placed: its document and files with their hex sha256. */
export interface PreparedSkill {
  name: string;
  layout: "file" | "folder";
  /** `.md` or `.toml` for a single-file skill. */
  extension: ".md" | ".toml";
  skill: Skill;
  document: Uint8Array;
  sha256: string;
  files: Array<{ path: string; bytes: Uint8Array; sha256: string }>;
  /** Parser warnings. */
  diagnostics: SkillDiagnostic[];
  /** What the file rule left out (paths and reasons). */
  excluded: Array<{ path: string; reason: string }>;
}

/** A skill that cannot be installed, and why. */
export interface RefusedSkill {
  name: string;
  reason: string;
  /** The parser's diagnostics, when the parse failed. */
  diagnostics: SkillDiagnostic[];
}

/** Caps of one skill. */
export interface PrepareLimits {
  maxFiles?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

/** The largest skill document read (the parser's own cap is 256 KiB). */
const MAX_DOCUMENT = 1024 * 1024;

/** Check and read `found`; see the top of this file. */
export async function prepareSkill(
  found: FoundSkill,
  limits: PrepareLimits = {},
): Promise<PreparedSkill | RefusedSkill> {
  const { fs } = nodeBuiltins("Installing a skill");
  const refuse = (reason: string, diagnostics: SkillDiagnostic[] = []): RefusedSkill => ({
    name: found.name,
    reason,
    diagnostics,
  });
  const info = await fs.lstat(found.document).catch(() => undefined);
  if (info === undefined || !info.isFile()) {
    return refuse(`${found.document} is not a regular file`);
  }
  if (info.size > MAX_DOCUMENT) {
    return refuse(`${found.document} is larger than ${MAX_DOCUMENT} bytes`);
  }
  const document = new Uint8Array(await fs.readFile(found.document));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(document);
  } catch {
    return refuse(`${found.document} is not UTF-8 text`);
  }
  const toml = /\.toml$/i.test(found.document);
  // A folder's name is the skill's name (the Agent Skills rule); a single file's front matter
  // decides, and its file name stands in only when the front matter's name is not usable.
  const expected = found.layout === "folder" ? found.name : undefined;
  let parsed;
  try {
    parsed = await parseSkill(text, {
      source: found.document,
      ...(expected === undefined ? {} : { name: expected }),
      format: toml ? "toml" : "auto",
    });
  } catch (error) {
    if (!isSkillParseError(error)) throw error;
    if (expected === undefined && error.field === "name" && isValidSkillName(found.name)) {
      try {
        parsed = await parseSkill(text, { source: found.document, name: found.name });
      } catch (again) {
        if (!isSkillParseError(again)) throw again;
        return refuse(again.message, again.diagnostics);
      }
    } else return refuse(error.message, error.diagnostics);
  }
  const { skill, diagnostics } = parsed;
  const prepared: PreparedSkill = {
    name: skill.name,
    layout: found.layout,
    extension: toml ? ".toml" : ".md",
    skill,
    document,
    sha256: await sha256Hex(document),
    files: [],
    diagnostics,
    excluded: [],
  };
  if (found.folder === undefined) return prepared;
  const maxFiles = limits.maxFiles ?? SKILL_FOLDER_LIMITS.maxFiles;
  const maxBytes = limits.maxBytes ?? SKILL_FOLDER_LIMITS.maxBytes;
  let walk;
  try {
    walk = await walkSkillFolder(found.folder, {
      maxFiles,
      maxBytes,
      symlinks: "refuse",
      overCap: "refuse",
      signal: limits.signal,
    });
  } catch (error) {
    if (error instanceof FolderRefusedError) return refuse(`${found.folder}: ${error.message}`);
    throw error;
  }
  prepared.excluded = walk.excluded;
  let total = 0;
  for (const file of walk.files) {
    limits.signal?.throwIfAborted();
    const bytes = new Uint8Array(await fs.readFile(file.full));
    total += bytes.byteLength;
    if (bytes.byteLength !== file.size || total > maxBytes) {
      return refuse(`${found.folder}: ${file.path} changed while it was read; try again`);
    }
    prepared.files.push({ path: file.path, bytes, sha256: await sha256Hex(bytes) });
  }
  return prepared;
}

/** Whether a {@linkcode prepareSkill} answer is refused. */
export function isRefused(value: PreparedSkill | RefusedSkill): value is RefusedSkill {
  return "reason" in value;
}
