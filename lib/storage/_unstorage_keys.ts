// Private: skillmux storage keys ↔ unstorage keys. unstorage joins segments with ":", treats
// "/" and "\" as ":", drops what follows a "?" and hides keys ending in "$" (its meta keys),
// so each segment escapes those characters (and "%", the escape) as %XX; "/" becomes ":".

const SPECIAL = /[%:?$]/g;

/** One key segment with `%`, `:`, `?` and `$` percent-escaped. */
function escapeSegment(segment: string): string {
  return segment.replace(SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The unstorage key for a valid skillmux key, under `base` (`""` or ending with `:`). */
export function toUnstorageKey(key: string, base: string): string {
  return base + key.split("/").map(escapeSegment).join(":");
}

/** The skillmux key for an unstorage key under `base`, or `undefined` for a foreign key. */
export function fromUnstorageKey(key: string, base: string): string | undefined {
  if (!key.startsWith(base)) return undefined;
  try {
    return key.slice(base.length).split(":").map(decodeURIComponent).join("/");
  } catch {
    return undefined; // not written by this adapter
  }
}

/**
 * The unstorage base to list for a skillmux prefix: its complete segments (everything up to the
 * last `/`), or `undefined` when no valid key can start with the prefix.
 */
export function listBase(prefix: string, base: string): string | undefined {
  const cut = prefix.lastIndexOf("/");
  if (cut < 0) return base;
  const head = prefix.slice(0, cut);
  if (head === "" || head.split("/").some((s) => s === "" || s === "." || s === "..")) {
    return undefined;
  }
  return `${toUnstorageKey(head, base)}:`;
}

/** A namespace as unstorage normalises it, with a trailing `:` (or `""`). */
export function normaliseBase(base: string | undefined): string {
  const trimmed = (base ?? "").replace(/[/\\]/g, ":").replace(/:+/g, ":").replace(/^:|:$/g, "");
  return trimmed === "" ? "" : `${trimmed}:`;
}
