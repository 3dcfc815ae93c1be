/**
 * Deno/Node only: the skills under a path, as `skill add`, `skill install` and `skill
 * lint` find them. A path is one skill (a skill file, or a folder holding SKILL.md) or a
 * collection: the skill files at its top (`x.md`, `x.toml`; repository documents such as
 * README.md are not skills) and every folder below holding a SKILL.md (not looked into further:
 * a skill's own folders are its files), up to 6 folders deep and 2,000 folders, skipping `.git`,
 * `node_modules` and the like (dot folders such as `.curated/` are looked into: collections
 * keep skills there).
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";

/** One skill found. */
export interface FoundSkill {
  /** The name its file or folder gives it (`x` for `x.md` or `x/SKILL.md`), as written. */
  name: string;
  /** The skill document. */
  document: string;
  /** The skill's folder, for a folder skill. */
  folder?: string;
  /** `"file"` (`x.md`, `x.toml`) or `"folder"` (`x/SKILL.md`). */
  layout: "file" | "folder";
}

/** What {@linkcode findSkills} found under a path. */
export interface FoundSkills {
  /** `"skill"` when the path is one skill, `"collection"` otherwise. */
  kind: "skill" | "collection";
  skills: FoundSkill[];
  /** Why the walk stopped short, when it did. */
  notes: string[];
}

/** Repository documents that sit beside skills and are never skills. */
const DOCUMENTS =
  /^(?:README|CONTRIBUTING|CHANGELOG|CHANGES|LICENSE|LICENCE|COPYING|NOTICE|CODE_OF_CONDUCT|SECURITY|SUPPORT|AGENTS|CLAUDE|GEMINI|THIRD_PARTY_NOTICES|CLA|AUTHORS|HISTORY)(?:\.[\w-]+)?$/i;
/** Folders never looked into for skills. */
const SKIP = new Set([".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__"]);

const MAX_DEPTH = 6;
const MAX_DIRS = 2_000;

/**
 * Whether `name` is a repository document rather than a skill file.
 *
 * @example
 * ```ts
 * import { isRepositoryDocument } from "./discover.ts";
 * console.log(isRepositoryDocument("README.md"), isRepositoryDocument("pdf.md")); // true false
 * ```
 */
export function isRepositoryDocument(name: string): boolean {
  return DOCUMENTS.test(name);
}

/**
 * The skills under `target` (a file or a folder); see the top of this file.
 *
 * @example
 * ```ts
 * import { findSkills } from "./discover.ts";
 * const found = await findSkills("./my-skills");
 * console.log(found.skills.map((s) => s.name));
 * ```
 */
export async function findSkills(target: string): Promise<FoundSkills> {
  const { fs, path } = nodeBuiltins("Finding skills");
  const info = await fs.stat(target);
  if (!info.isDirectory()) {
    const base = path.basename(target);
    const folder = base === "SKILL.md" ? path.dirname(target) : undefined;
    return {
      kind: "skill",
      skills: [{
        name: folder ? path.basename(folder) : base.replace(/\.(?:md|toml)$/i, ""),
        document: target,
        ...(folder ? { folder } : {}),
        layout: folder ? "folder" : "file",
      }],
      notes: [],
    };
  }
  const own = path.join(target, "SKILL.md");
  if (await isFile(own)) {
    return {
      kind: "skill",
      skills: [{
        name: path.basename(path.resolve(target)),
        document: own,
        folder: target,
        layout: "folder",
      }],
      notes: [],
    };
  }
  const skills: FoundSkill[] = [];
  const notes: string[] = [];
  let dirs = 0;
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (++dirs > MAX_DIRS) {
      if (dirs === MAX_DIRS + 1) notes.push(`stopped after ${MAX_DIRS} folders`);
      return;
    }
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        notes.push(`${full} is a symbolic link; not followed (name its target instead)`);
        continue;
      }
      if (entry.isDirectory()) {
        if (SKIP.has(entry.name)) continue;
        const doc = path.join(full, "SKILL.md");
        if (await isFile(doc)) {
          skills.push({ name: entry.name, document: doc, folder: full, layout: "folder" });
        } else if (depth < MAX_DEPTH) await visit(full, depth + 1);
        else if (depth === MAX_DEPTH) {
          notes.push(`${full} is deeper than ${MAX_DEPTH} folders; not searched`);
        }
      } else if (
        depth === 0 && entry.isFile() && /\.(?:md|toml)$/i.test(entry.name) &&
        !entry.name.startsWith(".") && !isRepositoryDocument(entry.name)
      ) {
        skills.push({
          name: entry.name.replace(/\.(?:md|toml)$/i, ""),
          document: full,
          layout: "file",
        });
      }
    }
  };
  await visit(target, 0);
  return { kind: "collection", skills, notes };
}

async function isFile(file: string): Promise<boolean> {
  const { fs } = nodeBuiltins("Finding skills");
  return await fs.lstat(file).then((s) => s.isFile(), () => false);
}
