/**
 * One MCP server's OAuth state: discovery, registration, the authorization code flow, refresh
 * (before expiry and on a 401, single-flight), step-up on 403 `insufficient_scope` with a retry
 * limit, and credentials bound to the authorization server that issued them.
 *
 * @module
 */

import type { BearerChallenge } from "./challenge.ts";
import { discoverAuthorization, type Discovery } from "./discovery.ts";
import { OAuthError } from "./errors.ts";
import { createMemoryOAuthStore } from "./store.ts";
import type {
  AuthOptions,
  DPoPKey,
  OAuthClientRecord,
  OAuthRecord,
  OAuthStore,
  OAuthTokenRecord,
  SignOutOptions,
  SignOutResult,
  TokenRequest,
} from "./types.ts";
import { authorize } from "./_authorize.ts";
import { createDPoP, dpopAlgorithm, dpopKey } from "./_dpop.ts";
import type { OAuth } from "./_oauth.ts";
import { clientCredentials, type GrantContext, redeemCode, refresh } from "./_grants.ts";
import { guardFetch } from "./_guarded_fetch.ts";
import { ensureClient } from "./_register.ts";
import { optionSecrets, revealingStore, secretAdder } from "./_reveal.ts";
import { refusedEndpoint } from "./_refused.ts";
import { revokeTokens } from "./_revoke.ts";

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

/** Whether issuer identifiers `a` and `b` are the same URL (`https://a.example` = `…/`). */
function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

function union(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((s) => s?.split(/\s+/).filter(Boolean) ?? []));
  return all.size === 0 ? undefined : [...all].join(" ");
}

/**
 * The OAuth state of one MCP server. `connect()` makes one from the `auth` option; use it
 * directly to sign in ahead of time (`signIn()`), or to sign out.
 *
 * @example Sign in ahead of time, then connect with the stored tokens
 * ```ts
 * import { createMemoryOAuthStore, OAuthSession } from "@skillmux/core/oauth";
 * const store = createMemoryOAuthStore();
 * const session = new OAuthSession("https://mcp.example.com/mcp", {
 *   store,
 *   redirectUri: "http://127.0.0.1:8976/callback",
 *   onAuthorize: async (url) => { console.log("open", url.href); return new URL("http://127.0.0.1:8976/callback?code=…&state=…"); },
 * });
 * await session.signIn();
 * ```
 */
export class OAuthSession {
  /** The MCP server URL. */
  readonly url: URL;
  #options: AuthOptions;
  #store: OAuthStore;
  #name: string;
  #fetch: typeof fetch;
  #busy: Promise<unknown> | undefined;
  #discovery: Discovery | undefined;
  #requested: string | undefined;
  #stepUps = 0;
  /** The token `auth.getToken` gave last. */
  #external: string | undefined;
  #addSecret: (value: string) => void;
  /** The DPoP handle (its key pair lives only here, never in the store), once the AS did DPoP. */
  #dpop: OAuth.DPoPHandle | undefined;
  #dpopKey: DPoPKey | undefined;

  /** The server's name in messages: the registry name `connect()` passes, else the URL's host. */
  get server(): string {
    return this.#name;
  }

  /** A session for the MCP server at `url`. */
  constructor(url: string | URL, options: AuthOptions, session: OAuthSessionOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
    const add = secretAdder(session.secrets);
    this.#addSecret = add;
    optionSecrets(options).forEach(add);
    this.#store = revealingStore(options.store ?? createMemoryOAuthStore(), add);
    this.#name = session.server ?? this.url.host;
    // Every URL and redirect hop checked (https or loopback http, then the URL policy), every
    // answer capped: metadata, registration, token and revocation requests all come this way.
    this.#fetch = guardFetch(session.fetch ?? ((input, init) => fetch(input, init)), {
      server: this.#name,
      check: session.checkUrl,
      maxBytes: session.maxResponseBytes,
    });
  }

  /** Run `fn` after whatever is under way, so only one flow or refresh runs at a time. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = (this.#busy ?? Promise.resolve()).catch(() => {}).then(fn);
    this.#busy = run;
    return run;
  }

  /** The access token to send, refreshed first when it expires soon; `undefined` without one. */
  async accessToken(): Promise<string | undefined> {
    return (await this.credentials()).token;
  }

  /**
   * What to send with a request: the access token (as {@linkcode accessToken}) and, when the
   * token is DPoP-bound (RFC 9449), the DPoP handle to sign proofs with — then the token goes
   * as `Authorization: DPoP <token>` with a `DPoP` proof, which `createAuthFetch` does.
   *
   * @example
   * ```ts
   * import { createMemoryOAuthStore, OAuthSession } from "@skillmux/core/oauth";
   * const session = new OAuthSession("https://mcp.example.com/mcp", { store: createMemoryOAuthStore() });
   * const { token, dpop } = await session.credentials();
   * console.log(token === undefined ? "not signed in" : dpop ? "DPoP-bound" : "bearer");
   * ```
   */
  async credentials(): Promise<{ token?: string; dpop?: DPoPKey }> {
    if (this.#options.getToken !== undefined) {
      return { token: this.#external ?? await this.#externalToken("initial", undefined) };
    }
    const token = await this.#accessToken();
    if (token === undefined) return {};
    return token.bound ? { token: token.value, dpop: this.#dpopKey } : { token: token.value };
  }

  /** A token from `auth.getToken`, kept for later requests and added to the redaction list. */
  #externalToken(
    reason: TokenRequest["reason"],
    challenge: BearerChallenge | undefined,
  ): Promise<string> {
    return this.#serial(async () => {
      if (reason === "initial" && this.#external !== undefined) return this.#external;
      return await this.#fetchExternal(reason, challenge);
    });
  }

  /** Ask `auth.getToken` (the caller holds the session's turn). */
  async #fetchExternal(
    reason: TokenRequest["reason"],
    challenge: BearerChallenge | undefined,
  ): Promise<string> {
    const token = await this.#options.getToken!({
      reason,
      server: this.#name,
      resource: this.url.href,
      ...(challenge?.scope !== undefined ? { scope: challenge.scope } : {}),
      ...(challenge?.resourceMetadata !== undefined
        ? { resourceMetadata: challenge.resourceMetadata }
        : {}),
    });
    if (typeof token !== "string" || token === "") {
      throw new OAuthError(
        "sign_in_required",
        `${this.#name}: auth.getToken (${reason}) gave no token; it must resolve with a non-empty string`,
        { server: this.#name },
      );
    }
    this.#addSecret(token);
    this.#external = token;
    return token;
  }

  /** Tokens this session can present: a DPoP-bound token only with the key it is bound to. */
  #usable(tokens: OAuthTokenRecord | undefined): tokens is OAuthTokenRecord {
    return tokens !== undefined && (tokens.tokenType !== "DPoP" || this.#dpop !== undefined);
  }

  #accessToken(): Promise<{ value: string; bound: boolean } | undefined> {
    return this.#serial(async () => {
      const record = await this.#store.get(this.url.href);
      const tokens = record?.tokens;
      if (!this.#usable(tokens)) return undefined;
      // Tokens of another issuer than the one the server now names are not used (nor refreshed
      // there): the server's 401 then leads to a new registration and sign-in.
      if (!this.#current(record!)) return undefined;
      const bound = tokens.tokenType === "DPoP";
      // Refresh `refreshSkewMs` early, but never earlier than half way through a short lifetime.
      const lifetime = (tokens.expiresAt ?? 0) - (tokens.obtainedAt ?? 0);
      const skew = Math.min(this.#options.refreshSkewMs ?? 60_000, lifetime / 2);
      if (tokens.expiresAt === undefined || tokens.expiresAt - skew > Date.now()) {
        return { value: tokens.accessToken, bound };
      }
      if (tokens.refreshToken === undefined || record?.client === undefined) {
        return { value: tokens.accessToken, bound };
      }
      try {
        const discovery = await this.#discover();
        // A refresh token and client secret go only to the issuer that issued them.
        if (discovery.server.issuer !== record.issuer) return undefined;
        const next = await this.#refresh(record, discovery);
        return { value: next.accessToken, bound: next.tokenType === "DPoP" };
      } catch {
        return { value: tokens.accessToken, bound }; // the server's 401 then takes the full path
      }
    });
  }

  /**
   * Handle a 401 to a request that carried `sent` (or no token): another caller's fresh token,
   * else a refresh, else a new authorization. Resolves `true` when a retry may succeed, `false`
   * when the server publishes no OAuth metadata and there is no way to sign in.
   */
  unauthorized(challenge: BearerChallenge | undefined, sent: string | undefined): Promise<boolean> {
    if (this.#options.getToken !== undefined) {
      // Checked in turn: a 401 to the token another caller's 401 is replacing waits for it.
      return this.#serial(async () => {
        if (this.#external === undefined || this.#external === sent) {
          await this.#fetchExternal("unauthorized", challenge);
        }
        return true;
      });
    }
    return this.#serial(async () => {
      const record = await this.#store.get(this.url.href);
      if (
        this.#usable(record?.tokens) && record!.tokens!.accessToken !== sent &&
        this.#current(record!)
      ) return true;
      const discovery = await this.#discover(challenge?.resourceMetadata, true);
      // No OAuth metadata and no way to sign in: an API-key server's 401 stays a 401.
      const { onAuthorize, clientCredentials } = this.#options;
      if (discovery.synthesized && !onAuthorize && !clientCredentials) return false;
      const bound = this.#bind(record, discovery);
      // DPoP-bound tokens from an earlier process: their key is gone, so sign in again.
      if (!this.#usable(bound.tokens)) delete bound.tokens;
      if (bound.tokens?.refreshToken !== undefined && bound.client !== undefined) {
        try {
          await this.#refresh(bound, discovery);
          return true;
        } catch (error) {
          if (!(error instanceof OAuthError) || this.#options.onAuthorize === undefined) {
            throw error;
          }
        }
      }
      await this.#obtain(bound, discovery, union(this.#options.scope ?? challenge?.scope));
      return true;
    });
  }

  /**
   * Handle a 403 `insufficient_scope`: authorize again for the union of the scopes asked for so
   * far and the challenge's. Resolves `false` once `maxStepUps` (default 2) were spent.
   */
  insufficientScope(challenge: BearerChallenge): Promise<boolean> {
    return this.#serial(async () => {
      if (this.#stepUps >= (this.#options.maxStepUps ?? 2)) return false;
      this.#stepUps++;
      if (this.#options.getToken !== undefined) {
        await this.#fetchExternal("insufficient_scope", challenge);
        return true;
      }
      const discovery = await this.#discover(challenge.resourceMetadata);
      const record = this.#bind(await this.#store.get(this.url.href), discovery);
      await this.#obtain(record, discovery, union(this.#requested, challenge.scope));
      return true;
    });
  }

  /** A request succeeded: the step-up budget starts again. */
  succeeded(): void {
    this.#stepUps = 0;
  }

  /** Sign in now (discovery, registration, authorization), whatever is stored. */
  signIn(): Promise<void> {
    return this.#serial(async () => {
      const discovery = await this.#discover(undefined, true);
      const record = this.#bind(await this.#store.get(this.url.href), discovery);
      delete record.tokens;
      await this.#obtain(record, discovery, this.#options.scope);
    });
  }

  /**
   * Sign out: revoke the stored tokens at the authorization server's `revocation_endpoint`
   * (RFC 7009; refresh token, then access token, with the client's registered authentication
   * method) when it advertises one, then forget the tokens and registration of this server —
   * whatever the revocation's outcome. A failed revocation is no error: the result's `warning`
   * says why (without any token). Tokens go only to the issuer that issued them, and only to an
   * https (or loopback http) `revocation_endpoint`: towards another issuer or an insecure
   * endpoint the revocation is skipped, and `warning` says so.
   *
   * @example Sign out, and tell the user when the server could not revoke the tokens
   * ```ts
   * import { createMemoryOAuthStore, OAuthSession } from "@skillmux/core/oauth";
   * const session = new OAuthSession("https://mcp.example.com/mcp", { store: createMemoryOAuthStore() });
   * const { revoked, warning } = await session.signOut({ timeoutMs: 3000 });
   * if (warning) console.warn(`warning: ${warning}`);
   * else console.log(`revoked: ${revoked.join(", ") || "nothing"}`);
   * ```
   */
  signOut(options: SignOutOptions = {}): Promise<SignOutResult> {
    return this.#serial(async () => {
      try {
        return options.revoke === false ? { revoked: [] } : await this.#revoke(options);
      } finally {
        await this.#store.delete(this.url.href);
      }
    });
  }

  /** Revoke the stored tokens, if any, where they were issued; failures become a warning. */
  async #revoke(options: SignOutOptions): Promise<SignOutResult> {
    const record = await this.#store.get(this.url.href).catch(() => undefined);
    const tokens = record?.tokens;
    const client = record?.client ?? this.#configuredClient();
    if (tokens === undefined || client === undefined) return { revoked: [] };
    const signal = AbortSignal.timeout(options.timeoutMs ?? 5_000);
    let as;
    try {
      as = this.#discovery?.server ?? (await discoverAuthorization(this.url, {
        fetch: this.#fetch,
        server: this.#name,
        signal,
      })).server;
    } catch (error) {
      const why = (error as Error)?.name === "TimeoutError"
        ? "no answer in time"
        : (error as Error)?.message ?? "discovery failed";
      return {
        revoked: [],
        warning: `could not reach the authorization server to revoke the tokens (${why})`,
      };
    }
    if (as.issuer !== record!.issuer) {
      return {
        revoked: [],
        warning: `the tokens were issued by ${
          record!.issuer
        }, but the server now names ${as.issuer}; they were not sent there to be revoked`,
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
    return await revokeTokens(as, client, tokens, this.#fetch, signal);
  }

  /** The client of the `clientCredentials` option, for tokens of that grant (no client stored). */
  #configuredClient(): OAuthClientRecord | undefined {
    const cc = this.#options.clientCredentials;
    if (cc === undefined || cc.privateKey !== undefined) return undefined;
    return {
      clientId: cc.clientId,
      clientSecret: cc.clientSecret,
      tokenEndpointAuthMethod: cc.clientSecret === undefined ? "none" : "client_secret_basic",
      kind: "pre-registered",
    };
  }

  async #discover(metadataUrl?: string, fresh = false): Promise<Discovery> {
    if (this.#discovery !== undefined && !fresh && metadataUrl === undefined) {
      return this.#discovery;
    }
    this.#discovery = await discoverAuthorization(this.url, {
      fetch: this.#fetch,
      server: this.#name,
      metadataUrl,
    });
    return this.#discovery;
  }

  /** Whether `record` belongs to the issuer of the last discovery (or none was made yet). */
  #current(record: OAuthRecord): boolean {
    return this.#discovery === undefined || this.#discovery.server.issuer === record.issuer;
  }

  /**
   * `record` when it belongs to the discovered issuer, else a fresh one: a new registration and
   * sign-in there, with nothing of the old issuer's (tokens, client, secret). A configured
   * client (`clientId`, `clientCredentials`) is bound to `auth.issuer`, else to the issuer it
   * was first used with: to another issuer it is refused, never sent.
   */
  #bind(record: OAuthRecord | undefined, discovery: Discovery): OAuthRecord {
    const issuer = discovery.server.issuer;
    const configured = this.#options.clientId !== undefined ||
      this.#options.clientCredentials !== undefined;
    const pinned = this.#options.issuer ?? record?.issuer;
    if (configured && pinned !== undefined && !sameIssuer(pinned, issuer)) {
      throw new OAuthError(
        "issuer_changed",
        `${this.#name}: the configured OAuth client belongs to the authorization server ` +
          `${pinned}, but the server now names ${issuer}; its credentials were not sent there ` +
          `(set auth.issuer and a client registered at ${issuer}, or sign out to start over)`,
        { server: this.#name },
      );
    }
    if (record === undefined || record.issuer !== issuer) return { issuer };
    // A client belongs to the issuer it was registered at (records from before clients named
    // theirs: the record's). One registered elsewhere is never presented here (_grants.ts), and
    // a sign-in registers again (_register.ts).
    if (record.client !== undefined) record.client.issuer ??= record.issuer;
    return record;
  }

  async #grant(discovery: Discovery): Promise<GrantContext> {
    // DPoP when the authorization server advertises it: one key pair for the session's life.
    const alg = this.#options.dpop === false ? undefined : dpopAlgorithm(discovery.server);
    if (alg !== undefined && this.#dpop === undefined) {
      this.#dpop = await createDPoP(alg);
      this.#dpopKey = dpopKey(this.#dpop, alg);
    }
    return {
      as: discovery.server,
      fetch: this.#fetch,
      server: this.#name,
      resource: discovery.resource?.resource ?? this.url.href,
      dpop: alg === undefined ? undefined : this.#dpop,
    };
  }

  async #refresh(record: OAuthRecord, discovery: Discovery) {
    const tokens = await refresh(await this.#grant(discovery), record.client!, record.tokens!);
    await this.#store.set(this.url.href, { ...record, tokens });
    return tokens;
  }

  /** Obtain tokens: the client credentials grant, or the authorization code flow. */
  async #obtain(record: OAuthRecord, discovery: Discovery, wanted: string | undefined) {
    const as = discovery.server;
    const grant = await this.#grant(discovery);
    let scope = wanted ?? discovery.resource?.scopes_supported?.join(" ");
    const cc = this.#options.clientCredentials;
    if (cc !== undefined) {
      const tokens = await clientCredentials(grant, cc, union(cc.scope, scope));
      await this.#store.set(this.url.href, { issuer: as.issuer, tokens });
      return;
    }
    const onAuthorize = this.#options.onAuthorize;
    const redirectUri = this.#options.redirectUri;
    if (onAuthorize === undefined || redirectUri === undefined) {
      const missing = onAuthorize === undefined
        ? "no auth.onAuthorize callback was given to open it"
        : "auth.redirectUri is missing: set the URL the sign-in redirects back to " +
          "(e.g. http://127.0.0.1:<port>/callback, where onAuthorize receives it)";
      throw new OAuthError(
        "sign_in_required",
        `${this.#name}: sign-in needed (OAuth, authorization server ${as.issuer}), but ${missing}`,
        { server: this.#name },
      );
    }
    if (as.scopes_supported?.includes("offline_access")) scope = union(scope, "offline_access");
    this.#requested = scope;
    const client = await ensureClient(as, this.#options, record.client, grant);
    const result = await authorize(
      as,
      client,
      { redirectUri, resource: grant.resource, scope, server: this.#name },
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
    await this.#store.set(this.url.href, { issuer: as.issuer, client, tokens });
  }
}
