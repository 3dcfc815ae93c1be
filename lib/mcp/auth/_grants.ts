// Private: the token endpoint — authorization code, refresh and client credentials grants, the
// client authentication method, and oauth4webapi errors turned into OAuthError (no secrets).

import { OAuthError } from "./errors.ts";
import type { AuthorizationServerMetadata } from "./discovery.ts";
import type { ClientCredentialsOptions, OAuthClientRecord, OAuthTokenRecord } from "./types.ts";
import { loadOAuth, type OAuth, type OAuthLib, requestOptions } from "./_oauth.ts";
import { withDPoPNonce } from "./_dpop.ts";

/** What every grant needs. */
export interface GrantContext {
  as: AuthorizationServerMetadata;
  fetch: typeof fetch;
  /** The server name for messages. */
  server: string;
  /** The `resource` parameter (RFC 8707). */
  resource: string;
  signal?: AbortSignal;
  /** The session's DPoP handle when the authorization server does DPoP (RFC 9449). */
  dpop?: OAuth.DPoPHandle;
}

type Method = NonNullable<OAuthClientRecord["tokenEndpointAuthMethod"]>;

/** The method to authenticate `client` with: its registered one, else the best the AS lists. */
export function authMethod(as: AuthorizationServerMetadata, client: OAuthClientRecord): Method {
  if (client.tokenEndpointAuthMethod) return client.tokenEndpointAuthMethod;
  if (client.clientSecret === undefined) return "none";
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "none";
}

/**
 * `client_secret_basic` with the id and secret form-encoded the way most servers decode them
 * (oauth4webapi also escapes `-`, `.`, `_`, `~`, which some servers do not undo).
 */
function basic(secret: string): OAuth.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** The oauth4webapi client authentication for `method`. */
export function clientAuth(oauth: OAuthLib, method: Method, secret: string | undefined) {
  if (method === "none" || secret === undefined) return oauth.None();
  return method === "client_secret_post" ? oauth.ClientSecretPost(secret) : basic(secret);
}

/**
 * Why `client` may not be presented to `as` — it is registered at another issuer — or
 * `undefined` when it may. The id and secret of a client of issuer A never go to B, whatever the
 * caller's bookkeeping says.
 */
export function foreignClient(
  as: AuthorizationServerMetadata,
  client: OAuthClientRecord,
): string | undefined {
  if (client.issuer === undefined || client.issuer === as.issuer) return undefined;
  return `the OAuth client is registered at ${client.issuer}, not at ${as.issuer}`;
}

/** How `client` authenticates to `as`; `issuer_changed` (nothing sent) when not registered there. */
export function presentClient(
  oauth: OAuthLib,
  as: AuthorizationServerMetadata,
  client: OAuthClientRecord,
  server: string,
): OAuth.ClientAuth {
  const why = foreignClient(as, client);
  if (why !== undefined) {
    throw new OAuthError(
      "issuer_changed",
      `${server}: ${why}; its credentials were not sent there`,
      {
        server,
      },
    );
  }
  return clientAuth(oauth, authMethod(as, client), client.clientSecret);
}

/** The refusals of a refresh that refused the client itself (`invalid_client`). */
const clientRefusals = new WeakSet<Error>();

/** Whether `error`, a refused refresh, refused the client (register again) and not only the grant. */
export function refusedClient(error: unknown): boolean {
  return error instanceof Error && clientRefusals.has(error);
}

/** An oauth4webapi failure as an OAuthError; `refresh` maps `invalid_grant` to re-auth. */
export function grantError(error: unknown, ctx: GrantContext, what: string, refresh = false) {
  if (error instanceof OAuthError) return error;
  const e = error as { name?: string; error?: string; status?: number; code?: string };
  const server = ctx.server;
  if (e?.name === "ResponseBodyError" && typeof e.error === "string") {
    if (refresh && (e.error === "invalid_grant" || e.error === "invalid_client")) {
      const refused = new OAuthError(
        "reauth_required",
        `${server}: the authorization server refused the refresh token (${e.error}); sign in again`,
        { server },
      );
      if (e.error === "invalid_client") clientRefusals.add(refused);
      return refused;
    }
    return new OAuthError(
      "token_request_failed",
      `${server}: ${what} failed: the token endpoint answered HTTP ${e.status} ${e.error}`,
      { server },
    );
  }
  if (e?.code === "OAUTH_RESPONSE_IS_NOT_JSON" || e?.code === "OAUTH_PARSE_ERROR") {
    return new OAuthError(
      "invalid_token_response",
      `${server}: ${what} failed: the token endpoint did not answer JSON`,
      { server },
    );
  }
  if (typeof e?.code === "string" && e.code.startsWith("OAUTH_")) {
    return new OAuthError(
      "invalid_token_response",
      `${server}: ${what} failed: the token endpoint's answer is not valid (${e.code})`,
      { server },
    );
  }
  const name = (error as Error)?.name;
  if (
    name === "AbortError" || name === "TimeoutError" || name === "PolicyError" ||
    name === "ResponseTooLargeError"
  ) {
    return error;
  }
  return new OAuthError("token_request_failed", `${server}: ${what} failed: network error`, {
    server,
    cause: error,
  });
}

function record(response: OAuth.TokenEndpointResponse, scope?: string): OAuthTokenRecord {
  const out: OAuthTokenRecord = { accessToken: response.access_token };
  if (response.token_type === "dpop") out.tokenType = "DPoP";
  if (response.refresh_token) out.refreshToken = response.refresh_token;
  if (typeof response.expires_in === "number") {
    out.obtainedAt = Date.now();
    out.expiresAt = out.obtainedAt + response.expires_in * 1000;
  }
  const granted = typeof response.scope === "string" ? response.scope : scope;
  if (granted) out.scope = granted;
  return out;
}

/** Redeem an authorization code (with the PKCE verifier and `resource`). */
export async function redeemCode(
  ctx: GrantContext,
  client: OAuthClientRecord,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
  scope?: string,
): Promise<OAuthTokenRecord> {
  const oauth = await loadOAuth();
  const c = { client_id: client.clientId };
  try {
    const auth = presentClient(oauth, ctx.as, client, ctx.server);
    return await withDPoPNonce(ctx.dpop, async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        ctx.as as OAuth.AuthorizationServer,
        c,
        auth,
        callback,
        redirectUri,
        verifier,
        {
          ...requestOptions(oauth, ctx.fetch, ctx.as.token_endpoint, ctx.signal),
          additionalParameters: { resource: ctx.resource },
          DPoP: ctx.dpop,
        },
      );
      return record(
        await oauth.processAuthorizationCodeResponse(
          ctx.as as OAuth.AuthorizationServer,
          c,
          response,
        ),
        scope,
      );
    });
  } catch (error) {
    throw grantError(error, ctx, "redeeming the authorization code");
  }
}

/** Use a refresh token; `reauth_required` when the server refuses it. */
export async function refresh(
  ctx: GrantContext,
  client: OAuthClientRecord,
  tokens: OAuthTokenRecord,
): Promise<OAuthTokenRecord> {
  const oauth = await loadOAuth();
  const c = { client_id: client.clientId };
  try {
    const auth = presentClient(oauth, ctx.as, client, ctx.server);
    return await withDPoPNonce(ctx.dpop, async () => {
      const response = await oauth.refreshTokenGrantRequest(
        ctx.as as OAuth.AuthorizationServer,
        c,
        auth,
        tokens.refreshToken!,
        {
          ...requestOptions(oauth, ctx.fetch, ctx.as.token_endpoint, ctx.signal),
          additionalParameters: { resource: ctx.resource },
          DPoP: ctx.dpop,
        },
      );
      const next = record(
        await oauth.processRefreshTokenResponse(ctx.as as OAuth.AuthorizationServer, c, response),
        tokens.scope,
      );
      // A server that does not rotate refresh tokens keeps the old one valid.
      if (next.refreshToken === undefined) next.refreshToken = tokens.refreshToken;
      return next;
    });
  } catch (error) {
    throw grantError(error, ctx, "refreshing the access token", true);
  }
}

async function importPrivateKey(pem: string, algorithm: string): Promise<CryptoKey> {
  const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  const der = Uint8Array.from(atob(body), (ch) => ch.charCodeAt(0));
  const params = algorithm.startsWith("ES")
    ? { name: "ECDSA", namedCurve: `P-${algorithm === "ES512" ? 521 : algorithm.slice(2)}` }
    : algorithm.startsWith("PS")
    ? { name: "RSA-PSS", hash: `SHA-${algorithm.slice(2)}` }
    : { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${algorithm.slice(2)}` };
  return await crypto.subtle.importKey("pkcs8", der, params, false, ["sign"]);
}

/** The client credentials grant, with `client_secret_basic` or `private_key_jwt`. */
export async function clientCredentials(
  ctx: GrantContext,
  options: ClientCredentialsOptions,
  scope?: string,
): Promise<OAuthTokenRecord> {
  const oauth = await loadOAuth();
  const c = { client_id: options.clientId };
  try {
    let auth: OAuth.ClientAuth;
    if (options.privateKey !== undefined) {
      const key = typeof options.privateKey === "string"
        ? await importPrivateKey(options.privateKey, options.algorithm ?? "ES256")
        : options.privateKey;
      auth = oauth.PrivateKeyJwt({ key } as unknown as OAuth.PrivateKey);
    } else if (options.clientSecret !== undefined) {
      auth = basic(options.clientSecret);
    } else {
      throw new OAuthError(
        "no_client",
        `${ctx.server}: clientCredentials needs clientSecret or privateKey`,
        { server: ctx.server },
      );
    }
    const parameters: Record<string, string> = { resource: ctx.resource };
    if (scope) parameters.scope = scope;
    return await withDPoPNonce(ctx.dpop, async () => {
      const response = await oauth.clientCredentialsGrantRequest(
        ctx.as as OAuth.AuthorizationServer,
        c,
        auth,
        parameters,
        { ...requestOptions(oauth, ctx.fetch, ctx.as.token_endpoint, ctx.signal), DPoP: ctx.dpop },
      );
      return record(
        await oauth.processClientCredentialsResponse(
          ctx.as as OAuth.AuthorizationServer,
          c,
          response,
        ),
        scope,
      );
    });
  } catch (error) {
    throw grantError(error, ctx, "the client credentials grant");
  }
}
