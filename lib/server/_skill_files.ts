// Private: the files of a folder skill (`x/SKILL.md` plus `references/`, `scripts/`, …) and the
// SEP-2640 entries of served skills: `skill://<name>/SKILL.md` and one `skill://<name>/<path>`
// per supporting file, each with its size and `sha256:` digest.

import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { readFrontMatter } from "../skill/front_matter.ts";

const MAX_FILES = 511;
const MAX_BYTES = 16 * 1024 * 1024;

/** One supporting file: its path inside the skill folder and its bytes. */
export interface SkillFileData {
  path: string;
  bytes: Uint8Array;
}

/** The supporting files of skill `name` in `folder` (none for single-file skills), bounded. */
export async function supportingFiles(folder: string, name: string): Promise<SkillFileData[]> {
  const root = join(folder, name);
  const found: SkillFileData[] = [];
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const item of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (item.name.startsWith(".") || found.length >= MAX_FILES) continue;
      const full = join(dir, item.name);
      if (item.isDirectory()) await walk(full);
      else if (item.isFile() && full !== join(root, "SKILL.md")) {
        const bytes = new Uint8Array(await readFile(full));
        if ((total += bytes.byteLength) > MAX_BYTES) return;
        found.push({ path: relative(root, full).split(sep).join("/"), bytes });
      }
    }
  };
  await walk(root);
  return found;
}

const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * The `skills/list` entry of one served skill. `_meta["io.skillmux/summary"]` carries its concepts
 * and example tasks, so a client ranks it by keywords without reading `SKILL.md`.
 */
export async function skillEntry(
  entry: { name: string; description: string; text: string; keywords?: string[]; tasks?: string[] },
  files: readonly SkillFileData[],
): Promise<Record<string, unknown>> {
  const uri = `skill://${entry.name}/SKILL.md`;
  const text = new TextEncoder().encode(entry.text);
  return {
    uri,
    frontmatter: await readFrontMatter(entry.text) ?? {
      name: entry.name,
      description: entry.description,
    },
    resources: [
      { uri, digest: digest(text), size: text.byteLength },
      ...files.map((file) => ({
        uri: `skill://${entry.name}/${file.path}`,
        digest: digest(file.bytes),
        size: file.bytes.byteLength,
      })),
    ],
    _meta: {
      "io.skillmux/summary": { keywords: entry.keywords ?? [], tasks: entry.tasks ?? [] },
    },
  };
}

/** The contents of a `resources/read` of `skill://<name>/<path>`, or `undefined`. */
export function fileContents(uri: string, file: SkillFileData): Record<string, unknown> {
  const text = new TextDecoder("utf-8", { fatal: true });
  try {
    return {
      uri,
      mimeType: file.path.endsWith(".md") ? "text/markdown" : "text/plain",
      text: text.decode(file.bytes),
    };
  } catch {
    return {
      uri,
      mimeType: "application/octet-stream",
      blob: Buffer.from(file.bytes).toString("base64"),
    };
  }
}
