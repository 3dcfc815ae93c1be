// Private: the secrets an OAuth session handles (access and refresh tokens, client secrets) join
// the redaction list of the connection (`PreparedServer.secrets`) as soon as the session sees
// them, whether read from the store, issued by a grant or given in the `auth` option. Tokens are
// obtained after the configuration was prepared and change on refresh, so the list grows; the
// session's own entries are capped (oldest dropped), so a long-lived connection stays bounded.

import type { AuthOptions, OAuthRecord, OAuthStore } from "./types.ts";

/** How many of one session's secrets a redaction list keeps (oldest go first). */
const KEEP = 32;

/** Adds a secret to `list` (deduplicated; at most `KEEP` of this session's own). */
export function secretAdder(list: string[] | undefined): (secret: string | undefined) => void {
  const mine: string[] = [];
  return (secret) => {
    if (list === undefined || secret === undefined || secret === "") return;
    if (list.includes(secret)) return;
    list.push(secret);
    mine.push(secret);
    if (mine.length > KEEP) {
      const old = mine.shift()!;
      const at = list.indexOf(old);
      if (at >= 0) list.splice(at, 1);
    }
  };
}

/** The secrets of the `auth` option itself. */
export function optionSecrets(options: AuthOptions): (string | undefined)[] {
  return [options.clientSecret, options.clientCredentials?.clientSecret];
}

/** `store`, with every record that passes through it (read or written) revealing its secrets. */
export function revealingStore(
  store: OAuthStore,
  add: (secret: string | undefined) => void,
): OAuthStore {
  const reveal = (record: OAuthRecord | undefined) => {
    add(record?.tokens?.accessToken);
    add(record?.tokens?.refreshToken);
    add(record?.client?.clientSecret);
    return record;
  };
  const revealing: OAuthStore = {
    get: async (resource) => reveal(await store.get(resource)),
    set: (resource, record) => store.set(resource, reveal(record)!),
    delete: (resource) => store.delete(resource),
  };
  if (store.exclusive !== undefined) {
    revealing.exclusive = (resource, fn) => store.exclusive!(resource, fn);
  }
  return revealing;
}
