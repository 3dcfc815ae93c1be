// Private: a cheap fingerprint of a skills folder, so the catalog re-reads the folder only when
// something in it changed: the names, mtimes and sizes of the skill files (`x.md`, `x.toml`,
// `x/SKILL.md`) on every call, and of every file in the skill folders (supporting files) at most
// once a second, since walking them all costs more.

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** How long the deep part (supporting files) of a fingerprint is reused, in milliseconds. */
const DEEP_MS = 1_000;

/** `mtime:size` of a file, or `undefined` when it does not exist. */
async function stamp(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? `${info.mtimeMs}:${info.size}` : undefined;
  } catch {
    return undefined;
  }
}

/** `path=mtime:size` of every file below `dir` (dot folders left out), sorted. */
async function deepStamps(dir: string, rel = "", out: string[] = []): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".")) await deepStamps(join(dir, entry.name), path, out);
    } else {
      out.push(`${path}=${await stamp(join(dir, entry.name)) ?? "?"}`);
    }
  }
  return out;
}

const deep = new Map<string, { at: number; value: Promise<string> }>();

/**
 * The fingerprint of the skills in `root`; see the top of this file. A missing folder has the
 * fingerprint `""`.
 */
export async function folderSignature(root: string): Promise<string> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return "";
  }
  const folders: string[] = [];
  const parts = await Promise.all(entries.map(async (entry) => {
    if (entry.name.startsWith(".")) return undefined;
    const file = entry.isDirectory()
      ? join(root, entry.name, "SKILL.md")
      : /\.(?:md|toml)$/.test(entry.name)
      ? join(root, entry.name)
      : undefined;
    if (file === undefined) return undefined;
    const found = await stamp(file);
    if (found !== undefined && entry.isDirectory()) folders.push(entry.name);
    return found === undefined ? undefined : `${entry.name}=${found}`;
  }));
  let known = deep.get(root);
  if (known === undefined || Date.now() - known.at > DEEP_MS) {
    const value = Promise.all(
      folders.sort().map(async (name) =>
        `${name}:{${(await deepStamps(join(root, name))).sort().join(",")}}`
      ),
    ).then((all) => all.join("\n"));
    known = { at: Date.now(), value };
    deep.set(root, known);
  }
  return `${parts.filter((part) => part !== undefined).sort().join("\n")}\n${await known.value}`;
}
