// Private: one authorization-code round trip — the authorize URL (PKCE S256, state, resource,
// scope), the host's onAuthorize callback, and the response checked (state, then RFC 9207 iss)
// before anything acts on it.

import { OAuthError } from "./errors.ts";
import type { AuthorizationServerMetadata } from "./discovery.ts";
import type { OAuthClientRecord } from "./types.ts";
import { foreignClient } from "./_grants.ts";
import { loadOAuth, type OAuth, type OAuthLib } from "./_oauth.ts";
import { requireOAuthUrl } from "./_oauth_url.ts";

/** What a checked authorization response gives the token request. */
export interface AuthorizationResult {
  /** The callback parameters (with the code). */
  callback: URLSearchParams;
  /** The PKCE verifier. */
  verifier: string;
}

/** Run the authorization request through `onAuthorize` and check its response. */
export async function authorize(
  as: AuthorizationServerMetadata,
  client: OAuthClientRecord,
  params: { redirectUri: string; resource: string; scope?: string; server: string },
  onAuthorize: (url: URL) => Promise<URL>,
): Promise<AuthorizationResult> {
  const { server } = params;
  const foreign = foreignClient(as, client);
  if (foreign !== undefined) {
    throw new OAuthError("issuer_changed", `${server}: ${foreign}; its id was not sent there`, {
      server,
    });
  }
  if (as.authorization_endpoint === undefined) {
    throw new OAuthError(
      "invalid_metadata",
      `${server}: the authorization server has no authorization_endpoint`,
      {
        server,
      },
    );
  }
  let endpoint: URL | undefined;
  try {
    endpoint = new URL(as.authorization_endpoint);
  } catch { /* reported below */ }
  if (endpoint === undefined) {
    throw new OAuthError("invalid_metadata", `${server}: authorization_endpoint is not a URL`, {
      server,
    });
  }
  // Nothing is built on, or handed to onAuthorize with, a javascript:, data: or plain-http URL.
  requireOAuthUrl(endpoint, server, `the authorization_endpoint of ${as.issuer}`);
  const oauth = await loadOAuth();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = endpoint;
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", params.redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  if (params.scope) url.searchParams.set("scope", params.scope);
  url.searchParams.set("resource", params.resource);
  const redirect = await onAuthorize(url);
  return { callback: check(oauth, as, client, redirect, state, server), verifier };
}

function check(
  oauth: OAuthLib,
  as: AuthorizationServerMetadata,
  client: OAuthClientRecord,
  redirect: URL,
  state: string,
  server: string,
): URLSearchParams {
  const params = redirect.searchParams;
  // RFC 9207 first: on an issuer mismatch nothing else in the response is acted on or shown.
  const iss = params.get("iss");
  if (
    iss !== null ? iss !== as.issuer : as.authorization_response_iss_parameter_supported === true
  ) {
    throw new OAuthError(
      "iss_mismatch",
      iss === null
        ? `${server}: the authorization response lacks "iss", which ${as.issuer} promises (RFC 9207)`
        : `${server}: the authorization response's "iss" is not ${as.issuer} (RFC 9207); the sign-in was rejected`,
      { server },
    );
  }
  if (params.get("state") !== state) {
    throw new OAuthError(
      "state_mismatch",
      `${server}: the redirect's "state" is not the one this sign-in sent; the sign-in was rejected`,
      { server },
    );
  }
  try {
    return oauth.validateAuthResponse(
      as as OAuth.AuthorizationServer,
      { client_id: client.clientId },
      params,
      state,
    );
  } catch (error) {
    const e = error as { error?: string };
    throw new OAuthError(
      "authorization_denied",
      `${server}: the authorization server did not grant access` +
        (typeof e.error === "string" ? ` (${e.error.replace(/[^\w.-]/g, "").slice(0, 64)})` : ""),
      { server },
    );
  }
}
