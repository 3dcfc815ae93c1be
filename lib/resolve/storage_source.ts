/**
 * A skill source over any {@linkcode Storage}: a folder, IndexedDB or memory.
 *
 * @module
 */

import type { SkillFormat } from "../skill/types.ts";
import type { Storage } from "../storage/types.ts";
import { createEntryCache } from "./_entry_cache.ts";
import type { SkillFolderAccess, SkillSource, SourceCallOptions, SourceEntry } from "./types.ts";

/** Options of {@linkcode createStorageSource}. */
export interface StorageSourceOptions {
  /** Provenance label, e.g. `user` or `community`. */
  label: string;
  /** Where the skill documents are stored. */
  storage: Storage;
  /** Key prefix of the skills inside `storage`, e.g. `skills/` (default: none). */
  prefix?: string;
  /** Per-source timeout in milliseconds. */
  timeoutMs?: number;
  /**
   * How the files of folder skills (`x/SKILL.md` plus `x/scripts/…`) are listed and read.
   * Default: the other keys under `x/`, as UTF-8 text. The zero-config sources and the skills
   * server read folders on disk byte for byte.
   */
  files?: SkillFolderAccess;
}

/** Names of repository documents that are never skills, though they sit beside them. */
const NOT_SKILLS = new Set([
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "LICENSE.md",
  "CODE_OF_CONDUCT.md",
  "SECURITY.md",
]);

/** The layouts a skill may have in storage, in the order they are tried. */
const LAYOUTS: ReadonlyArray<{ suffix: string; format: SkillFormat }> = [
  { suffix: ".md", format: "markdown" },
  { suffix: "/SKILL.md", format: "markdown" },
  { suffix: ".toml", format: "toml" },
];

/**
 * A source reading skills from a {@linkcode Storage}. Skill `x` is looked up as
 * `x.md`, then `x/SKILL.md` (an Agent Skills folder, whose other files are the skill's
 * supporting files: see `files`), then `x.toml` (legacy), each under `prefix`. Repository
 * documents beside skills (`README.md`, `CONTRIBUTING.md`, `CHANGELOG.md`, `LICENSE.md`,
 * `CODE_OF_CONDUCT.md`, `SECURITY.md`) are not listed as skills. `get` reads at most those three keys: it never lists the
 * store, so it stays fast with thousands of skills. When the storage offers
 * `version()` (the filesystem and memory adapters do), an unchanged entry is
 * answered from memory after one metadata check, and an unchanged miss after one
 * check of the folder; a changed file is always read again.
 *
 * @example A folder of user skills
 * ```ts
 * import { createResolver, createStorageSource } from "@skillmux/core";
 * import { createFsStorage } from "@skillmux/core/fs";
 * const user = createStorageSource({ label: "user", storage: createFsStorage({ root: "./my-skills" }) });
 * const hit = await createResolver({ sources: [user] }).resolve("samtools").catch(() => undefined);
 * console.log(hit?.location); // "samtools.md" when ./my-skills/samtools.md exists
 * ```
 */
export function createStorageSource(options: StorageSourceOptions): SkillSource {
  const { label, storage, timeoutMs } = options;
  const prefix = options.prefix ?? "";
  const cache = createEntryCache(storage, prefix);
  // The default access loads with the first folder skill read, not with a page.
  let access: SkillFolderAccess | undefined = options.files;
  const accessOf = async () =>
    access ??= (await import("./_storage_files.ts")).storageSkillFiles(storage);
  /** A folder skill's entry with its folder, files and reader, listed on every read. */
  const withFiles = async (
    entry: SourceEntry | undefined,
    name: string,
    signal: AbortSignal,
  ): Promise<SourceEntry | undefined> => {
    if (entry === undefined || entry.location !== `${prefix}${name}/SKILL.md`) return entry;
    const dir = `${prefix}${name}/`;
    const files = await accessOf();
    const listing = await files.list(dir, { signal });
    return {
      ...entry,
      folder: listing.folder,
      files: listing.files,
      ...(listing.notes?.length ? { notes: listing.notes } : {}),
      readFile: (path: string, call: SourceCallOptions) => files.read(dir, path, call),
    };
  };
  const read = async (name: string, signal: AbortSignal): Promise<SourceEntry | undefined> => {
    const known = await cache.lookup(name, signal);
    if (known !== "unknown") return known;
    const before = await cache.before(signal);
    for (const [index, { suffix, format }] of LAYOUTS.entries()) {
      const key = `${prefix}${name}${suffix}`;
      const seen = await cache.see(key, signal);
      const text = await storage.get(key, { signal });
      if (text === undefined) continue;
      return cache.remember(signal, name, before, { text, format, location: key }, seen, index);
    }
    return await cache.remember(signal, name, before, undefined);
  };
  return {
    label,
    timeoutMs,
    async get(name: string, call: SourceCallOptions): Promise<SourceEntry | undefined> {
      const entry = await read(name, call.signal);
      return call.withoutFiles ? entry : await withFiles(entry, name, call.signal);
    },
    async list({ signal }: SourceCallOptions): Promise<string[]> {
      const names = new Set<string>();
      for (const key of await storage.keys(prefix, { signal })) {
        const rest = key.slice(prefix.length);
        if (NOT_SKILLS.has(rest)) continue;
        for (const { suffix } of LAYOUTS) {
          const name = rest.endsWith(suffix) ? rest.slice(0, -suffix.length) : "";
          if (name !== "" && !name.includes("/")) names.add(name);
        }
      }
      return [...names];
    },
  };
}
