// Private: new tokens for a session — the client credentials grant, or the authorization code
// flow (a client for the issuer, the host's onAuthorize, the code redeemed) — as the record to
// store: the issuer, the client (for the code flow) and the tokens, written together.

import type { Discovery } from "./discovery.ts";
import { OAuthError } from "./errors.ts";
import type { AuthOptions, OAuthRecord } from "./types.ts";
import { authorize } from "./_authorize.ts";
import { clientCredentials, type GrantContext, redeemCode } from "./_grants.ts";
import { ensureClient } from "./_register.ts";

/** The union of space-separated scope lists, `undefined` when empty. */
export function union(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((s) => s?.split(/\s+/).filter(Boolean) ?? []));
  return all.size === 0 ? undefined : [...all].join(" ");
}

/**
 * Obtain tokens at `discovery`'s issuer for `wanted` (else the resource's scopes); `requested`
 * is the scope a code flow asked for (the base of a later step-up).
 */
export async function obtainTokens(
  options: AuthOptions,
  grant: GrantContext,
  record: OAuthRecord,
  discovery: Discovery,
  wanted: string | undefined,
): Promise<{ record: OAuthRecord; requested?: string }> {
  const as = discovery.server;
  const server = grant.server;
  let scope = wanted ?? discovery.resource?.scopes_supported?.join(" ");
  const cc = options.clientCredentials;
  if (cc !== undefined) {
    const tokens = await clientCredentials(grant, cc, union(cc.scope, scope));
    return { record: { issuer: as.issuer, tokens } };
  }
  const { onAuthorize, redirectUri } = options;
  if (onAuthorize === undefined || redirectUri === undefined) {
    const missing = onAuthorize === undefined
      ? "no auth.onAuthorize callback was given to open it"
      : "auth.redirectUri is missing: set the URL the sign-in redirects back to " +
        "(e.g. http://127.0.0.1:<port>/callback, where onAuthorize receives it)";
    throw new OAuthError(
      "sign_in_required",
      `${server}: sign-in needed (OAuth, authorization server ${as.issuer}), but ${missing}`,
      { server },
    );
  }
  if (as.scopes_supported?.includes("offline_access")) scope = union(scope, "offline_access");
  const client = await ensureClient(as, options, record.client, grant);
  const result = await authorize(
    as,
    client,
    { redirectUri, resource: grant.resource, scope, server },
    onAuthorize,
  );
  const tokens = await redeemCode(
    grant,
    client,
    result.callback,
    redirectUri,
    result.verifier,
    scope,
  );
  return { record: { issuer: as.issuer, client, tokens }, requested: scope };
}
