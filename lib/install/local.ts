/**
 * Add skills from a path on this machine: one skill file, one skill folder (copied whole), or a
 * collection of them, each checked and reported on its own.
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";
import { lintSkill } from "../skill/lint.ts";
import { findSkills, type FoundSkill } from "./discover.ts";
import { readLock, writeLock } from "./lock_file.ts";
import { findInstalled, placeSkill, readInstalled } from "./place.ts";
import { isRefused, type PreparedSkill, prepareSkill } from "./_prepare.ts";
import { sha256Hex } from "./_download.ts";
import type { AddSkillsOptions, AddSkillsResult, SkillVerdict } from "./types.ts";

/**
 * Add the skills at `path` to the folder `options.into` (the user or community skills folder).
 * `path` is a skill file (`x.md`, `x.toml`), a skill folder (`x/` holding `SKILL.md`, copied with
 * every file the one file rule keeps: see `skillFileExclusion`), or a collection (a folder of
 * skill folders and files, searched 6 folders deep; `README.md` and the like are not skills).
 *
 * Each skill is checked before anything of it is written: its verdict (the lenient parse: a
 * display name or a name that differs from its folder loads under the folder's name, with a
 * warning; no description, YAML that does not parse or an invalid folder name refuse it), no
 * symbolic link or special file in its folder, at most `maxFiles` files and `maxBytes` bytes
 * (1,000 and 50 MiB by default). A refused skill writes nothing; the others are placed
 * atomically (a staging folder renamed into place) and recorded in `skillmux-lock.json` with the
 * sha256 of every file. A skill already in the folder is replaced only with `force`, unless it
 * is the same bytes (then it is `unchanged`). Nothing of a skill is ever run.
 *
 * @param path A skill file, a skill folder or a collection.
 * @param options The folder to add into, `force`, `dryRun`, caps, the names to take.
 * @returns One verdict per skill found, in path order.
 *
 * @example Add a folder of skills to a temporary user folder
 * ```ts
 * import { addSkills } from "@skillmux/core/install";
 * const result = await addSkills("./team-skills", { into: "/tmp/skillmux-user", dryRun: true })
 *   .catch((error) => console.log(error.message));
 * for (const s of result?.skills ?? []) console.log(s.name, s.action, s.reason ?? "");
 * ```
 */
export async function addSkills(path: string, options: AddSkillsOptions): Promise<AddSkillsResult> {
  const { path: p } = nodeBuiltins("Adding skills");
  let found;
  try {
    found = await findSkills(path);
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const only = options.only === undefined ? undefined : new Set(options.only);
  const wanted = only === undefined
    ? found.skills
    : found.skills.filter((s) => only.has(s.name) || only.has(s.name.toLowerCase()));
  const root = p.resolve(path);
  const lock = await readLock(options.into);
  const taken = new Map<string, string>();
  const skills: SkillVerdict[] = [];
  for (const one of wanted) {
    skills.push(await addOne(one, root, taken, lock, options));
  }
  if (only !== undefined) {
    for (const name of only) {
      if (!wanted.some((s) => s.name === name || s.name.toLowerCase() === name)) {
        skills.push({
          name,
          action: "refused",
          reason: `no skill named "${name}" under ${path}`,
          files: 0,
          bytes: 0,
          diagnostics: [],
          lint: [],
          excluded: [],
        });
      }
    }
  }
  return { kind: found.kind, skills, notes: found.notes, dryRun: options.dryRun === true };
}

async function addOne(
  found: FoundSkill,
  root: string,
  taken: Map<string, string>,
  lock: Awaited<ReturnType<typeof readLock>>,
  options: AddSkillsOptions,
): Promise<SkillVerdict> {
  const { path: p } = nodeBuiltins("Adding skills");
  const prepared = await prepareSkill(found, options);
  if (isRefused(prepared)) {
    return {
      name: found.name,
      action: "refused",
      reason: prepared.reason,
      files: 0,
      bytes: 0,
      diagnostics: prepared.diagnostics,
      lint: [],
      excluded: [],
    };
  }
  const base: Omit<SkillVerdict, "action"> = {
    name: prepared.name,
    files: prepared.files.length,
    bytes: prepared.document.byteLength +
      prepared.files.reduce((n, f) => n + f.bytes.byteLength, 0),
    diagnostics: prepared.diagnostics,
    lint: lintSkill(prepared.skill, { files: prepared.files.map((f) => f.path) }),
    excluded: prepared.excluded,
  };
  const earlier = taken.get(prepared.name);
  if (earlier !== undefined) {
    return {
      ...base,
      action: "refused",
      reason: `"${prepared.name}" is here twice: ${earlier} is added, ${found.document} is not`,
    };
  }
  taken.set(prepared.name, found.document);
  const existing = await findInstalled(options.into, prepared.name);
  const path = prepared.layout === "folder"
    ? `${prepared.name}/SKILL.md`
    : `${prepared.name}${prepared.extension}`;
  if (existing !== undefined) {
    if (await sameAsInstalled(options.into, existing, prepared)) {
      return { ...base, action: "unchanged", path: existing };
    }
    if (options.force !== true) {
      return {
        ...base,
        action: "refused",
        reason: `"${prepared.name}" is already in ${options.into} (${existing}); use --force ` +
          "(force: true) to replace it",
        path: existing,
      };
    }
  }
  const action = existing === undefined ? "install" : "update";
  if (options.dryRun === true) return { ...base, action, path };
  const placed = await placeSkill(options.into, prepared);
  const origin = options.origin;
  const skillPath = found.folder === undefined
    ? p.relative(root, found.document)
    : p.relative(root, found.folder);
  lock.skills[prepared.name] = {
    name: prepared.name,
    source: origin?.source ?? root,
    sourceType: origin?.sourceType ?? "path",
    ...(origin?.version ? { version: origin.version } : {}),
    ...(origin?.ref ? { ref: origin.ref } : {}),
    ...(origin?.commit ? { commit: origin.commit } : {}),
    ...(origin?.artifact ? { artifact: origin.artifact } : {}),
    ...(skillPath !== "" ? { skillPath: skillPath.split(p.sep).join("/") } : {}),
    sha256: prepared.sha256,
    ...(prepared.files.length > 0
      ? { files: Object.fromEntries(prepared.files.map((f) => [f.path, f.sha256])) }
      : {}),
    installedAt: new Date().toISOString(),
  };
  await writeLock(options.into, lock);
  return { ...base, action, path: placed };
}

/** Whether the copy at `existing` holds exactly the prepared bytes. */
async function sameAsInstalled(
  dir: string,
  existing: string,
  prepared: PreparedSkill,
): Promise<boolean> {
  const expected = prepared.layout === "folder"
    ? `${prepared.name}/SKILL.md`
    : `${prepared.name}${prepared.extension}`;
  if (existing !== expected) return false;
  if (await sha256Hex(await readInstalled(dir, existing)) !== prepared.sha256) return false;
  if (prepared.layout === "file") return true;
  const { walkSkillFolder } = await import("../resolve/fs_folder.ts");
  const { path } = nodeBuiltins("Adding skills");
  const walk = await walkSkillFolder(path.join(dir, prepared.name), {
    maxFiles: prepared.files.length + 1,
    maxBytes: Number.MAX_SAFE_INTEGER,
  }).catch(() => undefined);
  if (walk === undefined || walk.files.length !== prepared.files.length) return false;
  for (const [i, file] of walk.files.entries()) {
    const want = prepared.files[i];
    if (file.path !== want.path || file.size !== want.bytes.byteLength) return false;
    if (
      await sha256Hex(await readInstalled(dir, `${prepared.name}/${file.path}`)) !== want.sha256
    ) {
      return false;
    }
  }
  return true;
}
