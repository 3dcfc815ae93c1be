// Private: a session's refresh of its stored tokens, holding the store's lock on the resource
// (`OAuthStore.exclusive`: across processes when the store can) and reading the record again
// under it. When another session or process rotated the tokens meanwhile, theirs are used — or
// refreshed in turn, with the newest refresh token — so a rotated refresh token is never
// presented twice (a server with reuse detection would revoke the whole grant) and a newer
// record is never overwritten by an older one. The new tokens are stored in one write.

import { isOAuthError, OAuthError } from "./errors.ts";
import type { OAuthRecord, OAuthStore, OAuthTokenRecord } from "./types.ts";
import { type GrantContext, refresh, refusedClient } from "./_grants.ts";

/** What the refresh needs of its session. */
export interface RefreshContext {
  store: OAuthStore;
  /** The MCP server URL: the store's key. */
  resource: string;
  /** The server name for messages. */
  server: string;
  /** Whether the session can present `tokens` (a DPoP-bound token needs its key). */
  usable(tokens: OAuthTokenRecord | undefined): tokens is OAuthTokenRecord;
  /** Whether `tokens` are due for refresh. */
  due(tokens: OAuthTokenRecord): boolean;
  /** The grant context at the issuer of the record. */
  grant(): Promise<GrantContext>;
}

/** Whether `tokens` are due for refresh: `skewMs` before they expire, at most half their life. */
export function dueForRefresh(tokens: OAuthTokenRecord, skewMs: number): boolean {
  if (tokens.expiresAt === undefined) return false;
  const lifetime = tokens.expiresAt - (tokens.obtainedAt ?? 0);
  return tokens.expiresAt - Math.min(skewMs, lifetime / 2) <= Date.now();
}

/**
 * Refresh `record`'s tokens (read by the caller) under the lock. `sent` (after a 401): the access
 * token the server refused, so that a stored one that differs is tried first. A refused refresh
 * (`reauth_required`) forgets the tokens — and with `invalid_client` the registration too — so
 * that the next request signs in once instead of presenting the dead token again.
 */
export function refreshStored(
  ctx: RefreshContext,
  record: OAuthRecord,
  sent?: string,
): Promise<OAuthTokenRecord> {
  const { store, resource, server } = ctx;
  const run = async () => {
    let current = record;
    const latest = await store.get(resource);
    const changed = latest?.tokens?.accessToken !== record.tokens?.accessToken ||
      latest?.tokens?.refreshToken !== record.tokens?.refreshToken;
    if (changed) {
      if (latest?.issuer !== record.issuer || latest.client === undefined) {
        throw new OAuthError(
          "reauth_required",
          `${server}: the stored tokens were replaced or forgotten meanwhile; sign in again`,
          { server },
        );
      }
      const tokens = latest.tokens;
      if (ctx.usable(tokens)) {
        const stale = sent !== undefined ? tokens.accessToken === sent : ctx.due(tokens);
        if (!stale || tokens.refreshToken === undefined) return tokens;
      }
      if (tokens?.refreshToken === undefined) {
        throw new OAuthError("reauth_required", `${server}: no refresh token; sign in again`, {
          server,
        });
      }
      current = latest;
    }
    try {
      const tokens = await refresh(await ctx.grant(), current.client!, current.tokens!);
      await store.set(resource, { ...current, tokens });
      return tokens;
    } catch (error) {
      if (isOAuthError(error, "reauth_required")) {
        const kept: OAuthRecord = { issuer: current.issuer };
        if (!refusedClient(error)) kept.client = current.client;
        await store.set(resource, kept);
      }
      throw error;
    }
  };
  return store.exclusive ? store.exclusive(resource, run) : run();
}
