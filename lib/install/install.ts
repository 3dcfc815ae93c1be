/**
 * Install, update and uninstall community skills from a registry.
 *
 * @module
 */

import { normalizeSkillName } from "../skill/name.ts";
import { InstallError } from "./errors.ts";
import { fetchRegistryIndex } from "./registry.ts";
import { type DownloadedSkill, downloadSkill, sha256Hex } from "./_download.ts";
import { type Lock, readLock, writeLock } from "./lock_file.ts";
import { findInstalled, placeSkill, readInstalled, removeSkill } from "./place.ts";
import { updateFromSources } from "./_update_sources.ts";
import type { InstallChange, InstallerOptions, InstallResult, RegistryIndex } from "./types.ts";

/**
 * Install skills from the registry into the community folder. Every skill is
 * downloaded and checked first — its digest against the index, its document
 * parsed and named as listed — and only then written, each atomically, and the
 * lock file updated. A failure before writing leaves the folder untouched.
 * A skill already there that the lock file does not know (one copied by hand)
 * is only replaced with `force`. With `dryRun`, nothing is written.
 *
 * @param names Skill names (normalised: ASCII only, lowercased).
 * @param options The registry, the community folder and HTTP options.
 * @returns What was (or would be) installed, updated or left unchanged.
 * @throws {InstallError} `invalid-name`, `not-found`, `digest`, `too-large`, `policy`, `conflict`, ...
 *
 * @example Install into a temporary community folder
 * ```ts
 * import { installSkills } from "@skillmux/core/install";
 * const result = await installSkills(["kraken2"], {
 *   registry: "https://skills.example.org",
 *   communityDir: "/tmp/skillmux-community",
 *   dryRun: true,
 * }).catch((error) => console.log(error.code));
 * console.log(result?.changes); // [{ name: "kraken2", action: "install", to: "1.2.0", path: "kraken2.md" }]
 * ```
 */
export async function installSkills(
  names: readonly string[],
  options: InstallerOptions,
): Promise<InstallResult> {
  const wanted = unique(names.map(checkName));
  const index = await fetchRegistryIndex(options);
  const lock = await readLock(options.communityDir);
  const planned = [];
  for (const name of wanted) planned.push(await plan(name, index, lock, options));
  return await apply(planned, lock, options);
}

/**
 * Update installed community skills: every skill in the lock file, or only `names`. A skill from
 * a registry goes to the registry's current version; one from a git repository is read again at
 * the ref it was installed from (a branch or tag may have moved; a commit stays), one from a
 * folder or a discovery index from there. A skill whose content is unchanged is left
 * `unchanged`; one edited by hand since it was installed is only replaced with `force` (without
 * it, a registry skill fails the call; a skill of another source is listed in `refused`). Same
 * checks and atomicity as {@linkcode installSkills}.
 *
 * @param names Skills to update; empty for every locked skill.
 * @param options The registry, the community folder and HTTP options.
 * @returns One change per skill: `update` or `unchanged`.
 * @throws {InstallError} `not-installed` for a name the lock file does not list, and as for installs.
 *
 * @example Update everything, showing what would change
 * ```ts
 * import { updateSkills } from "@skillmux/core/install";
 * const result = await updateSkills([], {
 *   registry: "https://skills.example.org",
 *   communityDir: "/tmp/skillmux-community",
 *   dryRun: true,
 * }).catch((error) => console.log(error.code));
 * for (const change of result?.changes ?? []) console.log(change.name, change.action);
 * ```
 */
export async function updateSkills(
  names: readonly string[],
  options: InstallerOptions,
): Promise<InstallResult> {
  const lock = await readLock(options.communityDir);
  const all = names.length === 0 ? Object.keys(lock.skills).sort() : unique(names.map(checkName));
  for (const name of all) {
    if (lock.skills[name] === undefined) {
      throw new InstallError(
        "not-installed",
        `Skill "${name}" was not installed by skill install (it is not in the lock file); ` +
          "use skill install",
        { skill: name },
      );
    }
  }
  // Skills from a git repository, a folder or a discovery index are read from there again.
  const fromRegistry = (name: string) =>
    (lock.skills[name].sourceType ?? "registry") === "registry";
  const wanted = all.filter(fromRegistry);
  const others = all.filter((name) => !fromRegistry(name)).map((name) => lock.skills[name]);
  const sources = others.length === 0
    ? { changes: [], refused: [] }
    : await updateFromSources(others, options);
  const result = wanted.length === 0
    ? { changes: [], dryRun: options.dryRun === true }
    : await (async () => {
      const index = await fetchRegistryIndex(options);
      const planned = [];
      for (const name of wanted) planned.push(await plan(name, index, lock, options));
      return await apply(planned, await readLock(options.communityDir), options);
    })();
  const changes = [...result.changes, ...sources.changes].sort((a, b) => a.name < b.name ? -1 : 1);
  return {
    changes,
    dryRun: result.dryRun,
    ...(sources.refused.length > 0 ? { refused: sources.refused } : {}),
  };
}

/**
 * Remove community skills and their lock entries. A name that is neither in
 * the folder nor in the lock file is an error; nothing is removed then.
 *
 * @param names Skills to remove.
 * @param options The community folder and `dryRun` (the registry is not contacted).
 * @returns One `uninstall` change per skill.
 * @throws {InstallError} `not-installed`.
 *
 * @example
 * ```ts
 * import { uninstallSkills } from "@skillmux/core/install";
 * await uninstallSkills(["kraken2"], { communityDir: "/tmp/skillmux-community" })
 *   .catch((error) => console.log(error.message)); // 'Skill "kraken2" is not installed …'
 * ```
 */
export async function uninstallSkills(
  names: readonly string[],
  options: Pick<InstallerOptions, "communityDir" | "dryRun">,
): Promise<InstallResult> {
  const dir = options.communityDir;
  const lock = await readLock(dir);
  const changes: InstallChange[] = [];
  for (const name of unique(names.map(checkName))) {
    const path = await findInstalled(dir, name);
    if (path === undefined && lock.skills[name] === undefined) {
      throw new InstallError(
        "not-installed",
        `Skill "${name}" is not installed in the community folder ${dir}`,
        { skill: name },
      );
    }
    changes.push({ name, action: "uninstall", from: lock.skills[name]?.version, path: path ?? "" });
  }
  if (options.dryRun === true) return { changes, dryRun: true };
  for (const change of changes) {
    await removeSkill(dir, change.name);
    delete lock.skills[change.name];
    await writeLock(dir, lock);
  }
  return { changes, dryRun: false };
}

interface Planned {
  change: InstallChange;
  download?: DownloadedSkill;
}

async function plan(
  name: string,
  index: RegistryIndex,
  lock: Lock,
  options: InstallerOptions,
): Promise<Planned> {
  const entry = index.skills.get(name);
  if (entry === undefined) {
    const problem = index.problems.find((p) => p.name === name);
    throw new InstallError(
      problem ? "invalid-index" : "not-found",
      problem
        ? `Skill "${name}" cannot be installed from ${index.url}: ${problem.message}`
        : `The registry ${index.url} has no skill named "${name}"`,
      { skill: name, url: index.url },
    );
  }
  const dir = options.communityDir;
  const locked = lock.skills[name];
  const existing = await findInstalled(dir, name);
  if (existing !== undefined && options.force !== true) {
    if (locked === undefined) {
      throw new InstallError(
        "conflict",
        `Skill "${name}" is already in the community folder (${existing}) but was not installed ` +
          "from a registry; use --force (force: true) to replace it",
        { skill: name },
      );
    }
    const main = existing.endsWith(".toml") ? undefined : await readInstalled(dir, existing);
    if (main === undefined || await sha256Hex(main) !== locked.sha256) {
      throw new InstallError(
        "conflict",
        `Skill "${name}" (${existing}) was changed since it was installed; use --force ` +
          "(force: true) to replace your changes",
        { skill: name },
      );
    }
  }
  const sha = entry.digest.slice("sha256:".length);
  const path = entry.files?.length ? `${name}/SKILL.md` : `${name}.md`;
  if (
    locked !== undefined && existing !== undefined && locked.sha256 === sha &&
    locked.version === entry.version && sameFiles(locked.files, entry.files)
  ) {
    return { change: { name, action: "unchanged", from: locked.version, to: entry.version, path } };
  }
  const action = locked !== undefined && existing !== undefined ? "update" : "install";
  const download = await downloadSkill(entry, index, options);
  return {
    change: {
      name,
      action,
      ...(action === "update" ? { from: locked!.version } : {}),
      to: entry.version,
      path,
    },
    download,
  };
}

function sameFiles(
  locked: Record<string, string> | undefined,
  files: { path: string; digest: string }[] | undefined,
): boolean {
  const want = Object.fromEntries((files ?? []).map((f) => [f.path, f.digest.slice(7)]));
  const have = locked ?? {};
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...keys].every((key) => want[key] === have[key]);
}

async function apply(
  planned: Planned[],
  lock: Lock,
  options: InstallerOptions,
): Promise<InstallResult> {
  const changes = planned.map((p) => p.change);
  if (options.dryRun === true) return { changes, dryRun: true };
  const dir = options.communityDir;
  for (const { change, download } of planned) {
    if (download === undefined) continue;
    change.path = await placeSkill(dir, {
      name: download.entry.name,
      layout: download.files.length > 0 ? "folder" : "file",
      document: download.document,
      files: download.files,
    });
    lock.skills[change.name] = {
      name: change.name,
      source: download.source,
      version: download.entry.version,
      sha256: download.sha256,
      ...(download.files.length > 0
        ? { files: Object.fromEntries(download.files.map((f) => [f.path, f.sha256])) }
        : {}),
      installedAt: new Date().toISOString(),
    };
    await writeLock(dir, lock);
  }
  return { changes, dryRun: false };
}

function checkName(name: string): string {
  try {
    return normalizeSkillName(name);
  } catch (error) {
    throw new InstallError("invalid-name", (error as Error).message, { cause: error });
  }
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
