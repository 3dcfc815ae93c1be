/**
 * Deno/Node only: the files of folder skills on disk, for a storage source over a
 * folder (`createStorageSource({ files })`): listed with the one file rule and the caps, each with
 * its size and sha256 digest (kept per file while its size, mtime and inode hold), read as bytes.
 *
 * @module
 */

import { BoundedCache } from "../_bounded_cache.ts";
import { nodeBuiltins } from "../_node.ts";
import { sha256Digest } from "../_digest.ts";
import { SKILL_FOLDER_LIMITS } from "../skill/files.ts";
import { walkSkillFolder } from "./fs_folder.ts";
import type { SkillFolderAccess, SkillFolderListing } from "./types.ts";

/** Digests by absolute path and stamp; the oldest are forgotten first. */
const MAX_DIGESTS = 50_000;
const digests = new BoundedCache<string, { stamp: string; digest: string }>(MAX_DIGESTS);

/** The digest of a file of `stamp`, from memory or read now. */
async function digestOf(full: string, stamp: string): Promise<string> {
  const known = digests.get(full);
  if (known?.stamp === stamp) return known.digest;
  const { fs } = nodeBuiltins("Reading a skill folder");
  const digest = await sha256Digest(new Uint8Array(await fs.readFile(full)));
  digests.delete(full);
  digests.set(full, { stamp, digest });
  return digest;
}

/** Options of {@linkcode fsSkillFiles}. */
export interface FsSkillFilesOptions {
  /** Most files listed per skill. Default 1000. */
  maxFiles?: number;
  /** Most bytes listed per skill. Default 50 MiB. */
  maxBytes?: number;
}

/**
 * Folder access under `root` (the storage's root folder): `dir` is a key prefix such as `pdf/`.
 * A folder whose real path leaves the real root is refused, as the filesystem storage refuses it.
 *
 * @example
 * ```ts
 * import { fsSkillFiles } from "./fs_files.ts";
 * const files = fsSkillFiles("./skills");
 * const signal = AbortSignal.timeout(10_000);
 * console.log(await files.list("pdf/", { signal })); // files of ./skills/pdf/, sizes, digests
 * ```
 */
export function fsSkillFiles(root: string, options: FsSkillFilesOptions = {}): SkillFolderAccess {
  const { fs, path } = nodeBuiltins("Reading a skill folder");
  const maxFiles = options.maxFiles ?? SKILL_FOLDER_LIMITS.maxFiles;
  const maxBytes = options.maxBytes ?? SKILL_FOLDER_LIMITS.maxBytes;
  // The root's real path, once it exists (a folder made later is looked up again).
  let rooted: Promise<string> | undefined;
  const realRootOf = () => {
    rooted ??= fs.realpath(root);
    rooted.catch(() => (rooted = undefined));
    return rooted;
  };
  const inside = async (dir: string): Promise<string> => {
    const realRoot = await realRootOf();
    const real = await fs.realpath(path.join(root, dir));
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
      throw new Error(`Cannot read the skill folder ${dir}: it leads out of ${root}`);
    }
    return real;
  };
  return {
    async list(dir, { signal }): Promise<SkillFolderListing> {
      const real = await inside(dir);
      const walk = await walkSkillFolder(real, { maxFiles, maxBytes, signal });
      const files = [];
      for (const file of walk.files) {
        signal.throwIfAborted();
        files.push({
          path: file.path,
          size: file.size,
          digest: await digestOf(file.full, file.stamp),
        });
      }
      return {
        folder: path.join(path.resolve(root), dir.replace(/\/$/, "")),
        files,
        notes: walk.notes,
      };
    },
    async read(dir, file, { signal }): Promise<Uint8Array> {
      signal.throwIfAborted();
      const real = await inside(dir);
      const full = path.join(real, ...file.split("/"));
      // Listed paths hold no `..` or symlink; refuse a symlink put there since.
      if ((await fs.lstat(full)).isSymbolicLink()) {
        throw new Error(`Cannot read ${file} of the skill folder ${dir}: it is a symbolic link`);
      }
      return new Uint8Array(await fs.readFile(full));
    },
  };
}
