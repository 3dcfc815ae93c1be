// Private: a cheap fingerprint of a skills folder (names, mtimes and sizes of the skill files),
// so the catalog re-reads the folder only when something in it changed.

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** `mtime:size` of a file, or `undefined` when it does not exist. */
async function stamp(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? `${info.mtimeMs}:${info.size}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fingerprint of the skill files in `root` (`x.md`, `x.toml`, `x/SKILL.md`): one `name=mtime:size`
 * per file, sorted. A missing folder has the fingerprint `""`.
 */
export async function folderSignature(root: string): Promise<string> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return "";
  }
  const parts = await Promise.all(entries.map(async (entry) => {
    if (entry.name.startsWith(".")) return undefined;
    const file = entry.isDirectory()
      ? join(root, entry.name, "SKILL.md")
      : /\.(?:md|toml)$/.test(entry.name)
      ? join(root, entry.name)
      : undefined;
    if (file === undefined) return undefined;
    const found = await stamp(file);
    return found === undefined ? undefined : `${entry.name}=${found}`;
  }));
  return parts.filter((part) => part !== undefined).sort().join("\n");
}
