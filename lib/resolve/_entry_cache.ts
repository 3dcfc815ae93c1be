// Private: what a storage source last read for each skill name, reused while the storage's
// `version()` fingerprints say nothing changed. A fingerprint counts only when it was settled
// before the read (see StorageVersion), so an edit is never hidden behind a coarse timestamp.

import type { Storage, StorageVersion } from "../storage/types.ts";
import type { SourceEntry } from "./types.ts";

/** Most names remembered; the oldest are forgotten first. */
const MAX_ENTRIES = 50_000;

interface Remembered {
  /** The entry read, or `undefined` for a miss. */
  entry: SourceEntry | undefined;
  /** The key's fingerprint, for a hit. */
  keyTag?: string;
  /** The folder's fingerprint, when a new file beside it could change the answer. */
  folderTag?: string;
}

/** The cache of one storage source. */
export interface EntryCache {
  /** The remembered answer when every fingerprint still holds, else `"unknown"`. */
  lookup(name: string, signal: AbortSignal): Promise<SourceEntry | undefined | "unknown">;
  /** The folder's fingerprint, taken before reading. */
  before(signal: AbortSignal): Promise<StorageVersion | undefined>;
  /** A key's fingerprint, taken before reading it. */
  see(key: string, signal: AbortSignal): Promise<StorageVersion | undefined>;
  /** Remember what was read (the entry of layout `index`, or a miss) and return it. */
  remember(
    signal: AbortSignal,
    name: string,
    folder: StorageVersion | undefined,
    entry: SourceEntry | undefined,
    seen?: StorageVersion,
    index?: number,
  ): Promise<SourceEntry | undefined>;
}

/** A cache over `storage` for skills under `prefix`; inert when the storage has no `version()`. */
export function createEntryCache(storage: Storage, prefix: string): EntryCache {
  const folder = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  const memory = new Map<string, Remembered>();
  const version = (path: string, signal: AbortSignal) =>
    storage.version === undefined
      ? Promise.resolve(undefined)
      : storage.version(path, { signal }).catch(() => undefined);

  return {
    async lookup(name, signal) {
      const known = memory.get(name);
      if (known === undefined) return "unknown";
      const fresh = (known.folderTag === undefined ||
        (await version(folder, signal))?.tag === known.folderTag) &&
        (known.keyTag === undefined ||
          (await version(known.entry!.location!, signal))?.tag === known.keyTag);
      if (fresh) return known.entry;
      memory.delete(name);
      return "unknown";
    },
    before: (signal) => version(folder, signal),
    see: (key, signal) => version(key, signal),
    async remember(signal, name, folderVersion, entry, seen, index = 0) {
      memory.delete(name);
      if (storage.version === undefined) return entry;
      // A miss or a late layout can be overtaken by a new file in the folder, or (for the
      // layouts after `<name>/SKILL.md`) by a SKILL.md in a `<name>/` folder we cannot watch.
      const watchFolder = entry === undefined || index > 0;
      const blindSpot = (entry === undefined || index > 1) &&
        (await version(`${prefix}${name}/`, signal)) !== undefined;
      const trusted = !blindSpot && (!watchFolder || folderVersion?.settled === true) &&
        (entry === undefined || seen?.settled === true);
      if (trusted) {
        if (memory.size >= MAX_ENTRIES) memory.delete(memory.keys().next().value!);
        memory.set(name, {
          entry,
          keyTag: entry === undefined ? undefined : seen!.tag,
          folderTag: watchFolder ? folderVersion!.tag : undefined,
        });
      }
      return entry;
    },
  };
}
