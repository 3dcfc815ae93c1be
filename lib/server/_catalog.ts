// Private: the skills a server exposes, parsed once per change of the folder (or per call for a
// caller's resolver), with a version string that changes exactly when the set, a text or a file
// changes. Each skill comes with its files (from the resolver's answer: the one file rule, sizes
// and digests) and a reader; a skill that is refused is kept with the reason, so that `get_skill`
// and reads of it say why instead of "no such skill".

import { fsSkillFiles } from "../resolve/fs_files.ts";
import { createBuiltinSource } from "../resolve/builtin_source.ts";
import { createResolver } from "../resolve/resolver.ts";
import { createStorageSource } from "../resolve/storage_source.ts";
import { isSkillNotFoundError } from "../resolve/errors.ts";
import type { Resolution, Resolver } from "../resolve/types.ts";
import type { SkillFileInfo } from "../skill/files.ts";
import { skillKind } from "../skill/kind.ts";
import { renderSkill } from "../skill/render.ts";
import type { Skill } from "../skill/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { folderSignature } from "./_folder.ts";

const SHOW_COMMANDS = { showCommands: true } as const;

/** One served skill. */
export interface ServedEntry {
  name: string;
  description: string;
  tags: string[];
  /** Concepts and example tasks, for keyword search. */
  keywords: string[];
  /** Example tasks (also in `keywords`). */
  tasks: string[];
  /**
   * The Markdown served as its `SKILL.md`: an Agent Skills document exactly as written (when it
   * loaded under the name it declares); a skill in skillmux's format rendered with
   * `renderSkill`, every example naming its program in a `**Command:**` line.
   */
  text: string;
  /** Its files besides `SKILL.md` (none for a single-file skill). */
  files: SkillFileInfo[];
  /** Where its folder is, for a folder skill. */
  folder?: string;
  /** The bytes of one of `files` (checked against its digest). */
  read(path: string): Promise<Uint8Array>;
}

/** Every served skill, the refused ones with why, and a version that changes with any of them. */
export interface Snapshot {
  version: string;
  entries: ReadonlyMap<string, ServedEntry>;
  /** Skills the source holds that are not served, by name, with the reason. */
  refused: ReadonlyMap<string, string>;
}

/** Where a catalog reads its skills. */
export interface CatalogOptions {
  folder?: string;
  resolver?: Resolver;
}

/** The document served for `skill` (see `ServedEntry.text`). */
async function servedText(hit: Resolution): Promise<string> {
  const { skill } = hit;
  if (skillKind(skill) === "agent-skills" && skill.declaredName === undefined) {
    return new TextDecoder().decode(await hit.readFile("SKILL.md"));
  }
  return renderSkill(skill, SHOW_COMMANDS);
}

async function entryOf(
  hit: Resolution,
  description = hit.skill.description,
): Promise<ServedEntry> {
  const skill: Skill = hit.skill;
  return {
    name: skill.name,
    description,
    tags: skill.tags,
    keywords: [...skill.concepts, ...skill.examples.map((e) => e.task)],
    tasks: skill.examples.map((e) => e.task),
    text: await servedText(hit),
    files: hit.files,
    ...(hit.folder === undefined ? {} : { folder: hit.folder }),
    read: (path) => hit.readFile(path),
  };
}

/** Why `name` was not served, from the resolver's diagnostics. */
function refusal(error: unknown, name: string): string {
  if (isSkillNotFoundError(error)) {
    const reasons = error.diagnostics.filter((d) => d.name === name || d.name === undefined)
      .map((d) => d.message);
    return reasons.length > 0 ? reasons.join("; ") : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The skills behind a server; see the top of this file. */
export class SkillCatalog {
  readonly #resolver: Resolver;
  /** Fingerprint of the source, or `undefined` when it cannot be fingerprinted (rebuild each call). */
  readonly #signature: (() => Promise<string>) | undefined;
  #cached: { signature: string; snapshot: Promise<Snapshot> } | undefined;

  constructor(options: CatalogOptions) {
    const folder = options.folder;
    if (options.resolver !== undefined) {
      this.#resolver = options.resolver;
    } else if (folder !== undefined) {
      const storage = createFsStorage({ root: folder });
      this.#resolver = createResolver({
        sources: [createStorageSource({ label: "folder", storage, files: fsSkillFiles(folder) })],
      });
      this.#signature = () => folderSignature(folder);
    } else {
      this.#resolver = createResolver({ sources: [createBuiltinSource()] });
      this.#signature = () => Promise.resolve("builtin");
    }
  }

  /** The current skills; a folder is re-read only when its fingerprint changed. */
  async snapshot(): Promise<Snapshot> {
    if (this.#signature === undefined) return await this.#build();
    const signature = await this.#signature();
    if (this.#cached?.signature !== signature) {
      const snapshot = this.#build();
      this.#cached = { signature, snapshot };
      snapshot.catch(() => {
        if (this.#cached?.snapshot === snapshot) this.#cached = undefined;
      });
    }
    return await this.#cached.snapshot;
  }

  /** The names served and the refused ones with why. */
  async served(): Promise<{ served: string[]; refused: Array<{ name: string; reason: string }> }> {
    const { entries, refused } = await this.snapshot();
    return {
      served: [...entries.keys()].sort(),
      refused: [...refused].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, reason]) => ({
        name,
        reason,
      })),
    };
  }

  /** One skill, or `undefined` when there is none of that name (see `refusedReason`). */
  async get(name: string): Promise<ServedEntry | undefined> {
    if (this.#signature !== undefined) return (await this.snapshot()).entries.get(name);
    try {
      return await entryOf(await this.#resolver.resolve(name));
    } catch {
      return undefined;
    }
  }

  /** Why skill `name` is not served, when the source holds it but refused it. */
  async refusedReason(name: string): Promise<string | undefined> {
    if (this.#signature !== undefined) return (await this.snapshot()).refused.get(name);
    try {
      await this.#resolver.resolve(name);
      return undefined;
    } catch (error) {
      if (!isSkillNotFoundError(error)) return refusal(error, name);
      const invalid = error.diagnostics.filter((d) => d.problem === "invalid");
      return invalid.length > 0 ? invalid.map((d) => d.message).join("; ") : undefined;
    }
  }

  async #build(): Promise<Snapshot> {
    const { skills, diagnostics } = await this.#resolver.list();
    const refused = new Map<string, string>();
    for (const d of diagnostics) {
      if (d.problem === "invalid" && d.name !== undefined) refused.set(d.name, d.message);
    }
    const found = await Promise.all(skills.map(async ({ name, description }) => {
      try {
        const hit = await this.#resolver.resolve(name);
        return { entry: await entryOf(hit, description), hit };
      } catch (error) {
        refused.set(name, refusal(error, name));
        return undefined;
      }
    }));
    const entries = new Map<string, ServedEntry>();
    const parts: string[] = [];
    for (const one of found) {
      if (one === undefined) continue;
      entries.set(one.entry.name, one.entry);
      const files = one.entry.files.map((f) => `${f.path}@${f.digest}`).join(";");
      parts.push(`${one.entry.name}@${one.hit.skill.digest}[${files}]`);
    }
    for (const name of entries.keys()) refused.delete(name);
    return { version: parts.join(","), entries, refused };
  }
}
