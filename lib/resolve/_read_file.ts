// Private: `Resolution.readFile`. Only a listed path is read (so a file the rule leaves out, a
// `..` path or an unlisted name never reaches the source), and the bytes must match the listed
// size and digest; `SKILL.md` is the document as the source gave it.

import { encoder, sha256Digest } from "../_digest.ts";
import type { SkillFileInfo } from "../skill/files.ts";
import { SkillFileError } from "./errors.ts";
import type { SourceCallOptions } from "./types.ts";

/** The reader of one resolved skill. */
export function fileReader(
  name: string,
  text: string,
  files: readonly SkillFileInfo[],
  read: ((path: string, options: SourceCallOptions) => Promise<Uint8Array>) | undefined,
): (path: string, options?: { signal?: AbortSignal }) => Promise<Uint8Array> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return async (path, options = {}) => {
    if (path === "SKILL.md") return encoder.encode(text);
    const file = typeof path === "string" ? byPath.get(path) : undefined;
    if (file === undefined || read === undefined) {
      throw new SkillFileError(name, String(path), "not-listed");
    }
    const signal = options.signal ?? new AbortController().signal;
    const bytes = await read(path, { signal });
    if (bytes.byteLength !== file.size) {
      throw new SkillFileError(
        name,
        path,
        "changed",
        `${bytes.byteLength} bytes, listed ${file.size}`,
      );
    }
    if (await sha256Digest(bytes) !== file.digest) {
      throw new SkillFileError(name, path, "changed", "its digest differs");
    }
    return bytes;
  };
}
