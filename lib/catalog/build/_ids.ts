// Private: catalog ids. Every id is a valid tool name for OpenAI and Anthropic
// (`^[a-zA-Z0-9_-]{1,64}$`), unique in the catalog, and maps back through the catalog's table.

/** The pattern every id (and every host function name) matches. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable disambiguator (not a security digest). */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Replace every character a tool name cannot hold with `_`. */
function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** `base` when it is a valid, exact id; otherwise a cut, cleaned form with a hash of `identity`. */
function fit(base: string, identity: string): string {
  if (TOOL_NAME.test(base)) return base;
  return `${sanitize(base).slice(0, 55)}_${shortHash(identity)}`;
}

/** Hands out ids in a fixed order, so the same set of entries always gets the same ids. */
export class IdTable {
  #taken = new Set<string>();

  /** An id for `preferred` (a name, or `server__tool`), made unique with a hash of `identity`. */
  claim(preferred: string, identity: string): string {
    let id = fit(preferred, identity);
    for (let salt = 0; this.#taken.has(id); salt++) {
      id = `${sanitize(preferred).slice(0, 55)}_${shortHash(`${identity}#${salt}`)}`;
    }
    this.#taken.add(id);
    return id;
  }
}
