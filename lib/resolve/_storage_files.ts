// Private: the default folder access of a storage source: a folder skill's files are the other
// keys under its prefix (`pdf/scripts/fill.py`), read as UTF-8 text. Binary files do not survive
// a text store, and the filesystem adapter hides dot names, so folders on disk use the disk
// itself (`_fs_files.ts`) instead.

import { encoder, sha256Digest } from "../_digest.ts";
import { SKILL_FOLDER_LIMITS, skillFileExclusion } from "../skill/files.ts";
import type { Storage } from "../storage/types.ts";
import type { SkillFolderAccess } from "./types.ts";

/** Access to the folder skills of `storage` through its keys. */
export function storageSkillFiles(storage: Storage): SkillFolderAccess {
  return {
    async list(dir, { signal }) {
      const files = [];
      const notes: string[] = [];
      let bytes = 0;
      for (const key of await storage.keys(dir, { signal })) {
        const path = key.slice(dir.length);
        if (path === "SKILL.md" || skillFileExclusion(path) !== undefined) continue;
        const text = await storage.get(key, { signal });
        if (text === undefined) continue;
        const data = encoder.encode(text);
        if (
          files.length >= SKILL_FOLDER_LIMITS.maxFiles ||
          bytes + data.length > SKILL_FOLDER_LIMITS.maxBytes
        ) {
          notes.push(
            `the folder is past the limit of ${SKILL_FOLDER_LIMITS.maxFiles} files or ` +
              `${SKILL_FOLDER_LIMITS.maxBytes} bytes; ${path} and the rest are left out`,
          );
          break;
        }
        bytes += data.length;
        files.push({ path, size: data.length, digest: await sha256Digest(data) });
      }
      return { folder: dir, files, notes };
    },
    async read(dir, path, { signal }) {
      const text = await storage.get(`${dir}${path}`, { signal });
      if (text === undefined) throw new Error(`${dir}${path} is gone`);
      return encoder.encode(text);
    },
  };
}
