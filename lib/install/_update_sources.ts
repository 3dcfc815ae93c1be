// Private, Deno/Node only: `updateSkills` for skills installed from a git repository, a folder
// or a discovery index (the lock file says which): each source is read again (git: at the ref
// asked for at install, so a branch or tag moves and a commit stays), and a skill is replaced
// only when its installed copy is still what was installed (else it needs `force`).

import { nodeBuiltins } from "../_node.ts";
import { sha256Hex } from "./_download.ts";
import { findInstalled, readInstalled } from "./place.ts";
import { installFromSource } from "./source.ts";
import { readLock } from "./lock_file.ts";
import type { InstallChange, InstallerOptions, LockEntry } from "./types.ts";

/** What updating some source-installed skills did. */
export interface SourceUpdate {
  changes: InstallChange[];
  refused: Array<{ name: string; reason: string }>;
}

/** Whether the installed copy of `entry` in `dir` is still the bytes the lock records. */
export async function intact(dir: string, entry: LockEntry): Promise<boolean> {
  const layout = await findInstalled(dir, entry.name);
  if (layout === undefined) return false;
  if (await sha256Hex(await readInstalled(dir, layout)) !== entry.sha256) return false;
  const want = entry.files ?? {};
  if (!layout.endsWith("/SKILL.md")) return Object.keys(want).length === 0;
  const { walkSkillFolder } = await import("../resolve/fs_folder.ts");
  const { path } = nodeBuiltins("Updating skills");
  const walk = await walkSkillFolder(path.join(dir, entry.name), {
    maxFiles: Object.keys(want).length + 1,
    maxBytes: Number.MAX_SAFE_INTEGER,
  });
  if (walk.files.length !== Object.keys(want).length) return false;
  for (const file of walk.files) {
    if (
      want[file.path] !== await sha256Hex(await readInstalled(dir, `${entry.name}/${file.path}`))
    ) {
      return false;
    }
  }
  return true;
}

/** What a lock entry's source was asked as. */
function specOf(entry: LockEntry): string {
  return entry.sourceType === "git" && entry.ref ? `${entry.source}#${entry.ref}` : entry.source;
}

/** The version a change shows: a commit's first 7, an index's version. */
const label = (entry: { commit?: string; version?: string }) =>
  entry.commit?.slice(0, 7) ?? entry.version;

/** Update `entries` (all from sources other than a registry) in `options.communityDir`. */
export async function updateFromSources(
  entries: readonly LockEntry[],
  options: InstallerOptions & { git?: string },
): Promise<SourceUpdate> {
  const dir = options.communityDir;
  const out: SourceUpdate = { changes: [], refused: [] };
  const groups = new Map<string, LockEntry[]>();
  for (const entry of entries) {
    if (options.force !== true && !await intact(dir, entry)) {
      out.refused.push({
        name: entry.name,
        reason: `"${entry.name}" was changed since it was installed; use --force (force: true) ` +
          "to replace your changes",
      });
      continue;
    }
    const key = `${entry.sourceType}\u0000${specOf(entry)}`;
    groups.set(key, [...groups.get(key) ?? [], entry]);
  }
  for (const group of groups.values()) {
    const result = await installFromSource(specOf(group[0]), {
      communityDir: dir,
      skills: group.map((e) => e.skillPath?.split("/").at(-1) ?? e.name),
      force: true,
      dryRun: options.dryRun,
      urlPolicy: options.urlPolicy,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      signal: options.signal,
      git: options.git,
    });
    const now = options.dryRun ? undefined : await readLock(dir);
    for (const verdict of result.skills) {
      const before = group.find((e) => e.name === verdict.name) ??
        group.find((e) => e.skillPath?.split("/").at(-1) === verdict.name);
      if (verdict.action === "refused") {
        out.refused.push({
          name: before?.name ?? verdict.name,
          reason: verdict.reason ?? "refused",
        });
        continue;
      }
      const after: { commit?: string; version?: string } = now?.skills[verdict.name] ??
        result.source;
      out.changes.push({
        name: verdict.name,
        action: verdict.action === "unchanged" ? "unchanged" : "update",
        ...(before && label(before) ? { from: label(before) } : {}),
        ...(label(after) ? { to: label(after) } : {}),
        path: verdict.path ?? "",
      });
    }
  }
  return out;
}
