// Private: token revocation (RFC 7009) at sign-out — the refresh token first (revoking it
// revokes its access tokens at most servers), then the access token, with the client's
// registered authentication method and a short timeout. Failures come back as a warning in
// words, never with a token in it.

import type { AuthorizationServerMetadata } from "./discovery.ts";
import type {
  AuthOptions,
  OAuthClientRecord,
  OAuthRecord,
  OAuthTokenRecord,
  SignOutResult,
} from "./types.ts";
import { refusedEndpoint } from "./_refused.ts";
import { authMethod, clientAuth, foreignClient } from "./_grants.ts";
import { loadOAuth, type OAuth, requestOptions } from "./_oauth.ts";

/** Why a revocation request failed, in words without any token. */
function reason(error: unknown): string {
  const e = error as {
    name?: string;
    error?: string;
    status?: number;
    code?: string;
    cause?: { status?: number };
  };
  if (e?.name === "ResponseBodyError") return `HTTP ${e.status} ${e.error}`;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "no answer in time";
  if (e?.name === "ResponseTooLargeError") return "its answer exceeds the size cap";
  if (e?.name === "OAuthError" || e?.name === "PolicyError") return "the URL was refused";
  const status = e?.status ?? e?.cause?.status;
  if (typeof status === "number") return `HTTP ${status}`;
  if (typeof e?.code === "string" && e.code.startsWith("OAUTH_")) return e.code;
  return "network error";
}

/** Revoke `tokens` at `as.revocation_endpoint` (the caller checked it is there). */
export async function revokeTokens(
  as: AuthorizationServerMetadata,
  client: OAuthClientRecord,
  tokens: OAuthTokenRecord,
  fetchFn: typeof fetch,
  signal: AbortSignal,
): Promise<SignOutResult> {
  const oauth = await loadOAuth();
  const c = { client_id: client.clientId };
  const foreign = foreignClient(as, client);
  if (foreign !== undefined) {
    return { revoked: [], warning: `${foreign}; the tokens were not sent there to be revoked` };
  }
  const auth = clientAuth(oauth, authMethod(as, client), client.clientSecret);
  const out: SignOutResult = { revoked: [] };
  const pending: [string | undefined, "refresh_token" | "access_token"][] = [
    [tokens.refreshToken, "refresh_token"],
    [tokens.accessToken, "access_token"],
  ];
  for (const [token, hint] of pending) {
    if (token === undefined) continue;
    try {
      const response = await oauth.revocationRequest(
        as as OAuth.AuthorizationServer,
        c,
        auth,
        token,
        {
          ...requestOptions(oauth, fetchFn, as.revocation_endpoint as string, signal),
          additionalParameters: { token_type_hint: hint },
        },
      );
      await oauth.processRevocationResponse(response);
      out.revoked.push(hint);
    } catch (error) {
      const what = hint === "refresh_token" ? "the refresh token" : "the access token";
      out.warning = `revoking ${what} at ${as.revocation_endpoint} failed (${reason(error)})`;
      return out;
    }
  }
  return out;
}

/** The client of the `clientCredentials` option, for tokens of that grant (no client stored). */
export function configuredClient(options: AuthOptions): OAuthClientRecord | undefined {
  const cc = options.clientCredentials;
  if (cc === undefined || cc.privateKey !== undefined) return undefined;
  return {
    clientId: cc.clientId,
    clientSecret: cc.clientSecret,
    tokenEndpointAuthMethod: cc.clientSecret === undefined ? "none" : "client_secret_basic",
    kind: "pre-registered",
  };
}

/**
 * Sign-out's revocation of `record`'s tokens, within `timeoutMs` (discovery through `find`
 * included): only at the issuer that issued them, only at an https (or loopback http)
 * `revocation_endpoint`; anything that stops it is a warning in words, never an error.
 */
export async function revokeStored(
  record: OAuthRecord | undefined,
  configured: OAuthClientRecord | undefined,
  find: (signal: AbortSignal) => Promise<AuthorizationServerMetadata>,
  fetchFn: typeof fetch,
  timeoutMs: number,
): Promise<SignOutResult> {
  const tokens = record?.tokens;
  const client = record?.client ?? configured;
  if (record === undefined || tokens === undefined || client === undefined) return { revoked: [] };
  const signal = AbortSignal.timeout(timeoutMs);
  let as;
  try {
    as = await find(signal);
  } catch (error) {
    const why = (error as Error)?.name === "TimeoutError"
      ? "no answer in time"
      : (error as Error)?.message ?? "discovery failed";
    return {
      revoked: [],
      warning: `could not reach the authorization server to revoke the tokens (${why})`,
    };
  }
  if (as.issuer !== record.issuer) {
    return {
      revoked: [],
      warning: `the tokens were issued by ${record.issuer}, but the server now names ` +
        `${as.issuer}; they were not sent there to be revoked`,
    };
  }
  const refused = refusedEndpoint(as, "revocation_endpoint");
  if (refused !== undefined) {
    return {
      revoked: [],
      warning: `revocation skipped: ${refused}, so the tokens were not sent there; they are ` +
        `forgotten here, but stay valid at the server until they expire`,
    };
  }
  if (typeof as.revocation_endpoint !== "string") return { revoked: [] };
  return await revokeTokens(as, client, tokens, fetchFn, signal);
}
