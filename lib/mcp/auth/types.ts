/**
 * The `auth` option of a server / `connect()`, and what the OAuth layer keeps per server.
 *
 * @module
 */

/** A client registration, bound to the authorization server (`issuer`) that issued it. */
export interface OAuthClientRecord {
  /** The client id. */
  clientId: string;
  /** The client secret, for confidential clients. */
  clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
  /** How the client was obtained. */
  kind: "pre-registered" | "metadata-document" | "dynamic";
  /**
   * The authorization server (issuer) the client is registered at. Its id and secret are sent
   * only there: towards another issuer the session registers again (or uses that issuer's
   * configured client) and never presents this one. Records written before this field existed
   * belong to their record's `issuer`.
   */
  issuer?: string;
}

/** Tokens from the token endpoint. */
export interface OAuthTokenRecord {
  /** The access token. */
  accessToken: string;
  /** The refresh token, when the server issued one. */
  refreshToken?: string;
  /** When the access token expires (epoch ms), when the server said. */
  expiresAt?: number;
  /** When the token was obtained (epoch ms). */
  obtainedAt?: number;
  /** The granted (else requested) scope. */
  scope?: string;
  /**
   * `"DPoP"` when the access token is bound to the session's DPoP key (RFC 9449); such a token
   * is only usable by the session that holds the key (the key is never stored).
   */
  tokenType?: "DPoP";
}

/** What the OAuth layer keeps for one MCP server (its resource URL). */
export interface OAuthRecord {
  /** The authorization server the registration and tokens belong to. */
  issuer: string;
  /** The client registration at `issuer`. */
  client?: OAuthClientRecord;
  /** The tokens `issuer` issued. */
  tokens?: OAuthTokenRecord;
}

/** Where registrations and tokens live, per resource URL. See `createOAuthStore`. */
export interface OAuthStore {
  /** The record of `resource`, if any. */
  get(resource: string): Promise<OAuthRecord | undefined>;
  /** Replace the record of `resource`. */
  set(resource: string, record: OAuthRecord): Promise<void>;
  /** Forget `resource` (sign out). */
  delete(resource: string): Promise<void>;
  /**
   * Run `fn` while no other `exclusive` call for `resource` runs — in this process, and in any
   * other that shares the store when it can tell (see `createOAuthStore`). A session refreshes
   * under it and reads the record again first, so a rotated refresh token is never presented
   * twice and the newest one is never overwritten by an older one. Optional: without it, one
   * session refreshes once at a time, but sessions sharing the store may race.
   */
  exclusive?<T>(resource: string, fn: () => Promise<T>): Promise<T>;
}

/** Machine-to-machine sign-in: the client credentials grant. */
export interface ClientCredentialsOptions {
  /** The client id. */
  clientId: string;
  /** With `client_secret_basic`. */
  clientSecret?: string;
  /** With `private_key_jwt`: a PKCS#8 PEM private key (EC P-256 or RSA) or a signing `CryptoKey`. */
  privateKey?: string | CryptoKey;
  /** The JWS algorithm of `privateKey` (default `ES256`). */
  algorithm?: string;
  /** Scope to ask for. */
  scope?: string;
}

/**
 * The `auth` option: how to sign in to an OAuth-protected MCP server. The interactive part is
 * `onAuthorize`: open the URL (a browser, a popup), and hand back the redirect URL with `code`
 * and `state`.
 */
export interface AuthOptions {
  /** A pre-registered client id (first choice of the spec's registration order). */
  clientId?: string;
  /** The pre-registered client's secret. */
  clientSecret?: string;
  /**
   * The issuer the configured client (`clientId`/`clientSecret`, `clientCredentials`) is
   * registered at. Its credentials are sent only there; when the server names another
   * authorization server, the request fails with `OAuthError` `issuer_changed`. Without it the
   * configured client is bound to the issuer it was first used with (kept in the store).
   */
  issuer?: string;
  /** An https URL of this client's metadata document (CIMD), used when the server supports it. */
  clientMetadataUrl?: string;
  /**
   * The redirect URI (a loopback URL for CLIs, a page of the app in browsers). Required for a
   * browser sign-in (`onAuthorize`); there is no default: without it such a sign-in fails with
   * `sign_in_required`, naming `auth.redirectUri`.
   */
  redirectUri?: string;
  /** The client name sent at dynamic registration (default "skillmux"). */
  clientName?: string;
  /** Scope to ask for instead of the server's. */
  scope?: string;
  /** Where tokens and registrations live (default: memory, for this process). */
  store?: OAuthStore;
  /** Open `url` and resolve with the redirect URL (with `code`, `state`, maybe `iss`). */
  onAuthorize?: (url: URL) => Promise<URL>;
  /** Use the client credentials grant instead of a user sign-in. */
  clientCredentials?: ClientCredentialsOptions;
  /** Refresh this long before the access token expires (ms, default 60 000). */
  refreshSkewMs?: number;
  /** Step-up re-authorizations after 403 `insufficient_scope` before giving up (default 2). */
  maxStepUps?: number;
  /**
   * Use DPoP (RFC 9449) when the authorization server advertises
   * `dpop_signing_alg_values_supported` (default `true`): tokens bound to a key pair this
   * session generates, sent as `Authorization: DPoP` with a proof per request. `false` keeps
   * bearer tokens.
   */
  dpop?: boolean;
  /**
   * A token obtained elsewhere (an enterprise identity provider's token exchange, a workload
   * identity's JWT bearer grant, a secret manager): when set, the session does no discovery,
   * registration or sign-in of its own. It calls `getToken` before the first request (reason
   * `"initial"`), again after a 401 (`"unauthorized"`, at most twice per request) and after a 403
   * `insufficient_scope` (`"insufficient_scope"`, with the scope asked for, up to `maxStepUps`),
   * and sends the answer as a bearer token. Tokens it returns are redacted like the session's own.
   */
  getToken?: (request: TokenRequest) => Promise<string>;
}

/** What {@linkcode AuthOptions.getToken} is asked for. */
export interface TokenRequest {
  /** Why a token is needed: before the first request, after a 401, or after a 403 step-up. */
  reason: "initial" | "unauthorized" | "insufficient_scope";
  /** The server's name (as in messages). */
  server: string;
  /** The MCP server URL: the `resource` (RFC 8707) the token is for. */
  resource: string;
  /** The scope the server's challenge asked for, when it named one. */
  scope?: string;
  /** The protected-resource metadata URL of the server's challenge, when it named one. */
  resourceMetadata?: string;
}

/** Options of `OAuthSession.signOut()`. */
export interface SignOutOptions {
  /**
   * Revoke the tokens at the authorization server's `revocation_endpoint` (RFC 7009) before
   * forgetting them, when it has one (default `true`).
   */
  revoke?: boolean;
  /** The time discovery and revocation may take together (ms, default 5 000). */
  timeoutMs?: number;
}

/** What `OAuthSession.signOut()` did; the local tokens are forgotten in every case. */
export interface SignOutResult {
  /** The tokens the authorization server revoked, refresh token first. */
  revoked: ("refresh_token" | "access_token")[];
  /**
   * Why revocation failed or was skipped (no token in it): e.g. `revocation skipped: the
   * authorization server's revocation_endpoint "http://auth.example.com/revoke" is not https …`.
   * Absent when it went well or the server has no revocation endpoint.
   */
  warning?: string;
}

/**
 * The key a DPoP-bound session signs its proofs with (RFC 9449). Opaque: the library makes it
 * (one non-extractable key pair per session) and `createAuthFetch` signs with it; a host only
 * tests whether there is one (see `OAuthSession.credentials()`).
 */
export interface DPoPKey {
  /** The proof algorithm, e.g. `"ES256"`. */
  readonly algorithm: string;
}

/** Options of {@linkcode OAuthSession} besides the `auth` option itself. */
export interface OAuthSessionOptions {
  /** The server name for messages. */
  server?: string;
  /** The fetch for discovery and the authorization server. */
  fetch?: typeof fetch;
  /** Checks each URL before it is fetched (connect() passes its URL policy); throws to refuse. */
  checkUrl?: (url: URL) => Promise<void>;
  /**
   * The connection's redaction list: the session adds every token and client secret it handles
   * (stored, issued, refreshed, configured), so none appears in an error or a log line.
   * `connect()` passes the prepared server's `secrets`.
   */
  secrets?: string[];
  /**
   * The byte cap of one answer of a metadata document, registration, token or revocation
   * endpoint (default 1 MiB); past it the request fails with `ResponseTooLargeError`.
   */
  maxResponseBytes?: number;
}
