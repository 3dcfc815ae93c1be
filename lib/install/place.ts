/**
 * Put a verified skill into the community folder atomically, find it, remove it.
 * A single-file skill is written to a temp file and renamed over `<name>.md`; a folder skill is
 * built in a hidden staging folder and renamed into place, the old folder moved aside first and
 * restored if the rename fails. Other layouts of the same name are removed afterwards, so the
 * resolver never sees two.
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";
import { writeFileAtomic } from "../storage/fs_write.ts";

/** What {@linkcode placeSkill} writes: a document and, for a folder skill, its files. */
export interface Placeable {
  name: string;
  /** `"file"`: `<name>.md` (or `.toml`); `"folder"`: `<name>/SKILL.md` plus the files. */
  layout: "file" | "folder";
  extension?: ".md" | ".toml";
  document: Uint8Array;
  files: ReadonlyArray<{ path: string; bytes: Uint8Array }>;
}

const builtins = () => nodeBuiltins("The skill installer");

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The layout `name` has in `dir` (`<name>.md`, `<name>/SKILL.md`, `<name>.toml`), if any.
 *
 * @example
 * ```ts
 * import { findInstalled } from "./place.ts";
 * console.log(await findInstalled("./community", "pdf")); // "pdf/SKILL.md", "pdf.md" or undefined
 * ```
 */
export async function findInstalled(dir: string, name: string): Promise<string | undefined> {
  const { fs, path } = builtins();
  for (const layout of [`${name}.md`, `${name}/SKILL.md`, `${name}.toml`]) {
    const found = await fs.stat(path.join(dir, layout)).then((s) => s.isFile(), () => false);
    if (found) return layout;
  }
  return undefined;
}

/**
 * The bytes of `layout` in `dir`.
 *
 * @example
 * ```ts
 * import { findInstalled, readInstalled } from "./place.ts";
 * const layout = await findInstalled("./community", "pdf");
 * if (layout) console.log((await readInstalled("./community", layout)).length);
 * ```
 */
export async function readInstalled(dir: string, layout: string): Promise<Uint8Array> {
  const { fs, path } = builtins();
  return new Uint8Array(await fs.readFile(path.join(dir, layout)));
}

/**
 * Write `skill` into `dir`; returns its layout (`<name>.md` or `<name>/SKILL.md`).
 *
 * @example
 * ```ts
 * import { placeSkill } from "./place.ts";
 * const document = new TextEncoder().encode("---\nname: pdf\ndescription: Fill PDF forms.\n---\n");
 * console.log(await placeSkill("./community", { name: "pdf", layout: "file", document, files: [] }));
 * // "pdf.md"
 * ```
 */
export async function placeSkill(dir: string, skill: Placeable): Promise<string> {
  const { fs, path } = builtins();
  const { name } = skill;
  await fs.mkdir(dir, { recursive: true });
  if (skill.layout === "file") {
    const extension = skill.extension ?? ".md";
    const file = `${name}${extension}`;
    await writeFileAtomic(path.join(dir, file), new TextDecoder().decode(skill.document), 0o644);
    await removeLayouts(dir, [`${name}`, `${name}.md`, `${name}.toml`].filter((f) => f !== file));
    return file;
  }
  const staging = path.join(dir, `.tmp-${name}-${randomId()}`);
  try {
    await fs.mkdir(staging);
    await fs.writeFile(path.join(staging, "SKILL.md"), skill.document, { flag: "wx" });
    for (const file of skill.files) {
      const target = path.resolve(staging, ...file.path.split("/"));
      if (!target.startsWith(staging + path.sep) || file.path === "SKILL.md") {
        throw new Error(`bad file path ${file.path}`);
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, file.bytes, { flag: "wx" });
    }
    const final = path.join(dir, name);
    const aside = path.join(dir, `.tmp-old-${name}-${randomId()}`);
    const hadOld = await fs.rename(final, aside).then(() => true, (error) => {
      if ((error as { code?: string }).code === "ENOENT") return false;
      throw error;
    });
    try {
      await fs.rename(staging, final);
    } catch (error) {
      if (hadOld) await fs.rename(aside, final).catch(() => {});
      throw error;
    }
    if (hadOld) await fs.rm(aside, { recursive: true, force: true });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  await removeLayouts(dir, [`${name}.md`, `${name}.toml`]);
  return `${name}/SKILL.md`;
}

/**
 * Remove every layout of `name` from `dir`; returns what was removed.
 *
 * @example
 * ```ts
 * import { removeSkill } from "./place.ts";
 * console.log(await removeSkill("./community", "pdf")); // ["pdf.md"]
 * ```
 */
export async function removeSkill(dir: string, name: string): Promise<string[]> {
  return await removeLayouts(dir, [`${name}.md`, `${name}`, `${name}.toml`]);
}

async function removeLayouts(dir: string, entries: string[]): Promise<string[]> {
  const { fs, path } = builtins();
  const removed: string[] = [];
  for (const entry of entries) {
    const target = path.join(dir, entry);
    const exists = await fs.lstat(target).then(() => true, () => false);
    if (!exists) continue;
    await fs.rm(target, { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}
