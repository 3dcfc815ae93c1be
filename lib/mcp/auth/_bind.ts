// Private: which stored record a session may use with the issuer the server names now. Tokens,
// a registration and its secret belong to the issuer that issued them: towards another issuer a
// fresh record (a new registration and sign-in there, nothing of the old issuer's); a configured
// client belongs to `auth.issuer`, else to the issuer it was first used with, and is refused
// towards any other (`issuer_changed`, nothing sent).

import { OAuthError } from "./errors.ts";
import type { AuthOptions, OAuthRecord } from "./types.ts";

/** Whether issuer identifiers `a` and `b` are the same URL (`https://a.example` = `…/`). */
function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** `record` when it belongs to `issuer`, else a fresh record for it; see the module comment. */
export function bindRecord(
  options: AuthOptions,
  server: string,
  record: OAuthRecord | undefined,
  issuer: string,
): OAuthRecord {
  const configured = options.clientId !== undefined || options.clientCredentials !== undefined;
  const pinned = options.issuer ?? record?.issuer;
  if (configured && pinned !== undefined && !sameIssuer(pinned, issuer)) {
    throw new OAuthError(
      "issuer_changed",
      `${server}: the configured OAuth client belongs to the authorization server ` +
        `${pinned}, but the server now names ${issuer}; its credentials were not sent there ` +
        `(set auth.issuer and a client registered at ${issuer}, or sign out to start over)`,
      { server },
    );
  }
  if (record === undefined || record.issuer !== issuer) return { issuer };
  // A client belongs to the issuer it was registered at (records from before clients named
  // theirs: the record's). One registered elsewhere is never presented here (_grants.ts), and
  // a sign-in registers again (_register.ts).
  if (record.client !== undefined) record.client.issuer ??= record.issuer;
  return record;
}
