// Private: the skills a server exposes, parsed once per change of the folder (or per call for a
// caller's resolver), with a version string that changes exactly when the set or a text changes.

import { createBuiltinSource } from "../resolve/builtin_source.ts";
import { createResolver } from "../resolve/resolver.ts";
import { createStorageSource } from "../resolve/storage_source.ts";
import type { Resolver } from "../resolve/types.ts";
import { renderSkill } from "../skill/render.ts";
import type { Skill } from "../skill/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { folderSignature } from "./_folder.ts";
import { type SkillFileData, supportingFiles } from "./_skill_files.ts";

const SHOW_COMMANDS = { showCommands: true } as const;

/** One served skill. */
export interface CatalogEntry {
  name: string;
  description: string;
  tags: string[];
  /** Concepts and example tasks, for keyword search. */
  keywords: string[];
  /** Example tasks (also in `keywords`). */
  tasks: string[];
  /**
   * The Markdown served for it: the parsed skill rendered with `renderSkill`, every example
   * naming the program it runs in a `**Command:**` line.
   */
  text: string;
}

const skillKeywords = (skill: Skill) => [...skill.concepts, ...skill.examples.map((e) => e.task)];

/** Every served skill, and a version that changes whenever one is added, changed or removed. */
export interface Snapshot {
  version: string;
  entries: ReadonlyMap<string, CatalogEntry>;
}

/** Where a catalog reads its skills. */
export interface CatalogOptions {
  folder?: string;
  resolver?: Resolver;
}

/** The skills behind a server; see the top of this file. */
export class SkillCatalog {
  readonly #resolver: Resolver;
  readonly #folder: string | undefined;
  /** Fingerprint of the source, or `undefined` when it cannot be fingerprinted (rebuild each call). */
  readonly #signature: (() => Promise<string>) | undefined;
  #cached: { signature: string; snapshot: Promise<Snapshot> } | undefined;

  constructor(options: CatalogOptions) {
    const folder = options.folder;
    this.#folder = options.resolver === undefined ? folder : undefined;
    if (options.resolver !== undefined) {
      this.#resolver = options.resolver;
    } else if (folder !== undefined) {
      const storage = createFsStorage({ root: folder });
      this.#resolver = createResolver({
        sources: [createStorageSource({ label: "folder", storage })],
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

  /** One skill, or `undefined` when there is none of that name. */
  async get(name: string): Promise<CatalogEntry | undefined> {
    if (this.#signature !== undefined) return (await this.snapshot()).entries.get(name);
    try {
      const { skill } = await this.#resolver.resolve(name);
      return {
        name: skill.name,
        description: skill.description,
        tags: skill.tags,
        keywords: skillKeywords(skill),
        tasks: skill.examples.map((e) => e.task),
        text: renderSkill(skill, SHOW_COMMANDS),
      };
    } catch {
      return undefined;
    }
  }

  /** The supporting files of a folder skill (`x/references/…`); none for other skills. */
  async files(name: string): Promise<SkillFileData[]> {
    return this.#folder === undefined ? [] : await supportingFiles(this.#folder, name);
  }

  async #build(): Promise<Snapshot> {
    const { skills } = await this.#resolver.list();
    const found = await Promise.all(skills.map(async ({ name, description }) => {
      try {
        const { skill } = await this.#resolver.resolve(name);
        const entry: CatalogEntry = {
          name,
          description,
          tags: skill.tags,
          keywords: skillKeywords(skill),
          tasks: skill.examples.map((e) => e.task),
          text: renderSkill(skill, SHOW_COMMANDS),
        };
        return { entry, digest: skill.digest };
      } catch {
        return undefined;
      }
    }));
    const entries = new Map<string, CatalogEntry>();
    const parts: string[] = [];
    for (const hit of found) {
      if (hit === undefined) continue;
      entries.set(hit.entry.name, hit.entry);
      parts.push(`${hit.entry.name}@${hit.digest}`);
    }
    return { version: parts.join(","), entries };
  }
}
