// Private: keyword index segments kept in a storage adapter between processes. Each source's
// segment is saved under the digest of what its documents are made of (ids and each entry's
// index key: a remote tool's definition digest, a skill's digest and summary), so a new process
// whose sources did not change loads the index instead of tokenizing every entry again, and a
// changed source's segment is simply another digest. A list of the saved digests (most recently
// used last) keeps the newest KEEP; a save or list that fails, or one that does not load, only
// costs the indexing.

import type { Storage } from "../../storage/types.ts";
import { encoder, sha256Digest } from "../../_digest.ts";
import {
  adoptSegment,
  forgetSegments,
  hasSegment,
  type IndexSegment,
  savedSegment,
} from "../search/_keyword_index.ts";

/** Bump when tokenizing, the fields or the saved form change: earlier saves are then not read. */
const FORMAT = "skillmux keyword index 3";
const PREFIX = "keyword-index/";
const LIST = "keyword-index.json";
const SAVED_KEY = /^keyword-index\/[0-9a-f]{64}$/;
/** How many segments a storage keeps (a few catalog versions of a few dozen sources). */
const KEEP = 64;

/** A segment with where its saved form lives. */
export interface StoredSegment {
  segment: IndexSegment;
  key: string;
}

/** Per storage, the in-process keys of the segments known to be saved there. */
let saved = new WeakMap<Storage, Set<string>>();

/** Forget every segment this process built, loaded or saved (a test seam: a new process). */
export function forgetProcessSegments(): void {
  forgetSegments();
  saved = new WeakMap();
}

function savedIn(storage: Storage): Set<string> {
  let keys = saved.get(storage);
  if (!keys) saved.set(storage, keys = new Set());
  return keys;
}

/** The storage key of each segment not known to be saved in `storage`. */
async function storageKeys(
  segments: readonly IndexSegment[],
  storage: Storage,
): Promise<StoredSegment[]> {
  const known = savedIn(storage);
  const unknown = segments.filter((s) => !known.has(s.key));
  return await Promise.all(unknown.map(async (segment) => ({
    segment,
    key: PREFIX +
      (await sha256Digest(encoder.encode(`${FORMAT}\n${segment.stableKey()}`))).slice(7),
  })));
}

/**
 * Load the saved segments of `segments` that this process does not hold; returns the segments
 * not saved in `storage` (or whose save was refused), to be saved once indexed.
 */
export async function loadSegments(
  segments: readonly IndexSegment[],
  storage: Storage,
): Promise<StoredSegment[]> {
  const wanted = await storageKeys(segments, storage);
  const found = await Promise.all(wanted.map(async ({ segment, key }) => {
    const text = await storage.get(key).catch(() => undefined);
    if (text === undefined) return false;
    if (hasSegment(segment.key)) return true; // built here already: the save is not read
    try {
      return adoptSegment(segment.key, segment.documents(), JSON.parse(text));
    } catch {
      return false;
    }
  }));
  const known = savedIn(storage);
  wanted.forEach((w, i) => found[i] && known.add(w.segment.key));
  if (found.some(Boolean)) {
    await remember(storage, wanted.filter((_, i) => found[i]).map((w) => w.key));
  }
  return wanted.filter((_, i) => !found[i]);
}

/** Save the segments `loadSegments` did not find, now indexed, and forget the oldest saves. */
export async function saveSegments(stored: readonly StoredSegment[], storage: Storage) {
  const written: string[] = [];
  for (const { segment, key } of stored) {
    const form = savedSegment(segment.key);
    if (form === undefined) continue;
    try {
      await storage.set(key, JSON.stringify(form));
      written.push(key);
      savedIn(storage).add(segment.key);
    } catch { /* not saved: the next process indexes it again */ }
  }
  if (written.length > 0) await remember(storage, written);
}

/**
 * Move `used` to the end of the list (adding those not in it: just saved, or loaded from a save
 * the list had lost, so that it is pruned in its turn), and delete what falls past KEEP.
 */
async function remember(storage: Storage, used: string[]): Promise<void> {
  try {
    const text = await storage.get(LIST);
    const parsed: unknown = text === undefined ? [] : parseList(text);
    // Only keys of saved segments: a damaged list must not name other data to delete.
    const before = Array.isArray(parsed) ? parsed.filter((k) => SAVED_KEY.test(String(k))) : [];
    const list = [...before.filter((k) => !used.includes(k)), ...used];
    const dropped = list.splice(0, Math.max(0, list.length - KEEP));
    await storage.set(LIST, JSON.stringify(list));
    await Promise.all(dropped.map((k) => storage.delete(k).catch(() => {})));
  } catch { /* the list is only for pruning */ }
}

/** The list's JSON; a list that is not JSON names nothing (and is replaced, so pruning goes on). */
function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}
