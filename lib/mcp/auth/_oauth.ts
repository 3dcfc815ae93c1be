// Private: oauth4webapi, loaded on first use (the browser bundle of "." never carries it), and
// the options every oauth4webapi request takes here.

import type * as OAuth from "oauth4webapi";
import { isAllowedOAuthUrl } from "./discovery.ts";

export type { OAuth };

/** The functions and symbols of oauth4webapi the client calls (see _oauth_used.ts). */
export type OAuthLib = typeof import("./_oauth_used.ts");

/** oauth4webapi's used parts, imported once. */
export function loadOAuth(): Promise<OAuthLib> {
  return import("./_oauth_used.ts");
}

/** Request options: our fetch, and plain http only on loopback hosts (tests, local servers). */
export function requestOptions(
  oauth: OAuthLib,
  fetchFn: typeof fetch,
  endpoint: string | undefined,
  signal?: AbortSignal,
): Record<symbol | string, unknown> {
  let insecure = false;
  try {
    const url = new URL(endpoint ?? "");
    insecure = url.protocol === "http:" && isAllowedOAuthUrl(url);
  } catch { /* oauth4webapi reports a missing endpoint */ }
  return {
    [oauth.customFetch]: fetchFn,
    [oauth.allowInsecureRequests]: insecure,
    signal: signal ?? AbortSignal.timeout(30_000),
  };
}
