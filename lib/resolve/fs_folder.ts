/**
 * Deno/Node only: the walk of one skill folder on disk, shared by the resolver's folder
 * sources, the installer and the CLI. It applies the one file rule (skillFileExclusion), never
 * follows a symlink (a symlink is skipped, or with `symlinks: "refuse"` fails the walk), and stops
 * at the caps: with `overCap: "refuse"` a folder past a cap fails the walk, otherwise the listing
 * stops there and says so.
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";
import { skillFileExclusion } from "../skill/files.ts";
import { ResolveError } from "./errors.ts";

/** One regular file found, relative to the folder. */
export interface FolderFile {
  /** `/`-separated path inside the folder. */
  path: string;
  /** Absolute path on disk. */
  full: string;
  size: number;
  /** `size:mtimeMs:ino`: changes when the file may have changed. */
  stamp: string;
}

/** What a walk found. */
export interface FolderWalk {
  files: FolderFile[];
  /** Paths left out by the file rule, with the reason (not files of the skill). */
  excluded: Array<{ path: string; reason: string }>;
  /** Sentences about what was skipped for safety or the caps (symlinks, a cap reached). */
  notes: string[];
}

/**
 * A walk refused: a symlink with `symlinks: "refuse"`, a cap with `overCap: "refuse"`.
 *
 * @example
 * ```ts
 * import { FolderRefusedError, walkSkillFolder } from "./fs_folder.ts";
 * try {
 *   await walkSkillFolder("./skills/pdf", { maxFiles: 10, maxBytes: 1 << 20, symlinks: "refuse" });
 * } catch (error) {
 *   if (error instanceof FolderRefusedError) console.log(error.reason); // "symlink", "files", …
 * }
 * ```
 */
export class FolderRefusedError extends ResolveError {
  declare readonly code: "folder-refused";
  /** `symlink`, `files` (too many), `bytes` (too large) or `special` (not a regular file). */
  readonly reason: "symlink" | "files" | "bytes" | "special";
  constructor(reason: FolderRefusedError["reason"], message: string) {
    super("folder-refused", message);
    this.name = "FolderRefusedError";
    this.reason = reason;
  }
}

/** Options of {@linkcode walkSkillFolder}. */
export interface WalkSkillFolderOptions {
  maxFiles: number;
  maxBytes: number;
  symlinks?: "skip" | "refuse";
  overCap?: "stop" | "refuse";
  signal?: AbortSignal;
  /** Leave this relative path out (the skill document itself). Default `SKILL.md`. */
  document?: string;
  /** Deepest folder nesting followed. Default 16. */
  maxDepth?: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Every file of the skill folder `dir`, in path order; see the top of this file.
 *
 * @example
 * ```ts
 * import { walkSkillFolder } from "./fs_folder.ts";
 * const walk = await walkSkillFolder("./skills/pdf", { maxFiles: 1_000, maxBytes: 50 << 20 });
 * console.log(walk.files.map((f) => f.path)); // ["scripts/fill.py", …], SKILL.md left out
 * ```
 */
export async function walkSkillFolder(
  dir: string,
  options: WalkSkillFolderOptions,
): Promise<FolderWalk> {
  const { fs, path } = nodeBuiltins("Reading a skill folder");
  const document = options.document ?? "SKILL.md";
  const maxDepth = options.maxDepth ?? 16;
  const out: FolderWalk = { files: [], excluded: [], notes: [] };
  let bytes = 0;
  let stopped = false;
  const refuse = options.overCap === "refuse";
  const visit = async (folder: string, rel: string, depth: number): Promise<void> => {
    options.signal?.throwIfAborted();
    const entries = await fs.readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) {
        if (options.symlinks === "refuse") {
          throw new FolderRefusedError(
            "symlink",
            `${relPath} is a symbolic link; a skill folder must hold plain files only`,
          );
        }
        out.notes.push(`${relPath} is a symbolic link; left out`);
        continue;
      }
      // Folders are checked with a file under them, so a dot folder is left out whole.
      const probe = entry.isDirectory() ? `${relPath}/x` : relPath;
      const reason = skillFileExclusion(probe);
      if (reason !== undefined) {
        out.excluded.push({ path: entry.isDirectory() ? `${relPath}/` : relPath, reason });
        continue;
      }
      if (entry.isDirectory()) {
        if (depth >= maxDepth) {
          out.notes.push(`${relPath}/ is nested deeper than ${maxDepth} folders; left out`);
          continue;
        }
        await visit(full, relPath, depth + 1);
        continue;
      }
      if (!entry.isFile()) {
        if (options.symlinks === "refuse") {
          throw new FolderRefusedError("special", `${relPath} is not a regular file`);
        }
        out.notes.push(`${relPath} is not a regular file; left out`);
        continue;
      }
      if (relPath === document) continue;
      const info = await fs.lstat(full);
      if (out.files.length + 1 > options.maxFiles) {
        const message = `the folder has more than ${plural(options.maxFiles, "file")} ` +
          "(the limit)";
        if (refuse) throw new FolderRefusedError("files", message);
        out.notes.push(`${message}; the rest is left out`);
        stopped = true;
        return;
      }
      if (bytes + info.size > options.maxBytes) {
        const message = `the folder holds more than ${options.maxBytes} bytes (the limit)`;
        if (refuse) throw new FolderRefusedError("bytes", message);
        out.notes.push(`${message}; ${relPath} and the rest are left out`);
        stopped = true;
        return;
      }
      bytes += info.size;
      out.files.push({
        path: relPath,
        full,
        size: info.size,
        stamp: `${info.size}:${info.mtimeMs}:${info.ino}`,
      });
    }
  };
  await visit(dir, "", 0);
  return out;
}
