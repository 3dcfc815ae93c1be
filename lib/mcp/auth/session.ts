/**
 * One MCP server's OAuth state: discovery, registration, the authorization code flow, refresh
 * (before expiry and on a 401, single-flight), step-up on 403 `insufficient_scope` with a retry
 * limit, and credentials bound to the authorization server that issued them.
 *
 * @module
 */

// Long because: one class, the OAuth state of one server: discovery, registration, the code flow,
// refresh and step-up share the session's record and its single-flight promises.

import type { BearerChallenge } from "./challenge.ts";
import { discoverAuthorization, type Discovery } from "./discovery.ts";
import { isOAuthError, OAuthError } from "./errors.ts";
import { createMemoryOAuthStore } from "./store.ts";
import type {
  AuthOptions,
  DPoPKey,
  OAuthRecord,
  OAuthSessionOptions,
  OAuthStore,
  OAuthTokenRecord,
  SignOutOptions,
  SignOutResult,
  TokenRequest,
} from "./types.ts";
import { createDPoP, dpopAlgorithm, dpopKey } from "./_dpop.ts";
import type { OAuth } from "./_oauth.ts";
import { bindRecord } from "./_bind.ts";
import { type GrantContext, refusedClient } from "./_grants.ts";
import { obtainTokens, union } from "./_obtain.ts";
import { dueForRefresh, refreshStored } from "./_refresh.ts";
import { guardFetch } from "./_guarded_fetch.ts";
import { optionSecrets, revealingStore, secretAdder } from "./_reveal.ts";
import { configuredClient, revokeStored } from "./_revoke.ts";

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
      if (!this.#due(tokens) || tokens.refreshToken === undefined || record?.client === undefined) {
        return { value: tokens.accessToken, bound };
      }
      try {
        const discovery = await this.#discover();
        // A refresh token and client secret go only to the issuer that issued them.
        if (discovery.server.issuer !== record.issuer) return undefined;
        const next = await this.#refresh(record, discovery);
        return { value: next.accessToken, bound: next.tokenType === "DPoP" };
      } catch (error) {
        // Refused: the tokens are forgotten, and the server's 401 leads to one sign-in.
        if (isOAuthError(error, "reauth_required")) return undefined;
        return { value: tokens.accessToken, bound }; // the server's 401 then takes the full path
      }
    });
  }

  #due(tokens: OAuthTokenRecord): boolean {
    return dueForRefresh(tokens, this.#options.refreshSkewMs ?? 60_000);
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
          await this.#refresh(bound, discovery, sent ?? "");
          return true;
        } catch (error) {
          if (!(error instanceof OAuthError) || this.#options.onAuthorize === undefined) {
            throw error;
          }
          delete bound.tokens;
          if (refusedClient(error)) delete bound.client; // a new registration, too
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
    return await revokeStored(
      record,
      configuredClient(this.#options),
      async (signal) =>
        this.#discovery?.server ??
          (await discoverAuthorization(this.url, {
            fetch: this.#fetch,
            server: this.#name,
            signal,
          })).server,
      this.#fetch,
      options.timeoutMs ?? 5_000,
    );
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

  /** `record` bound to the discovered issuer (see `_bind.ts`). */
  #bind(record: OAuthRecord | undefined, discovery: Discovery): OAuthRecord {
    return bindRecord(this.#options, this.#name, record, discovery.server.issuer);
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

  /** Refresh `record`'s tokens under the store's lock (see `_refresh.ts`). */
  async #refresh(
    record: OAuthRecord,
    discovery: Discovery,
    sent?: string,
  ): Promise<OAuthTokenRecord> {
    return await refreshStored(
      {
        store: this.#store,
        resource: this.url.href,
        server: this.#name,
        usable: (tokens) => this.#usable(tokens),
        due: (tokens) => this.#due(tokens),
        grant: () => this.#grant(discovery),
      },
      record,
      sent,
    );
  }

  /** Obtain tokens: the client credentials grant, or the authorization code flow. */
  async #obtain(record: OAuthRecord, discovery: Discovery, wanted: string | undefined) {
    const grant = await this.#grant(discovery);
    const obtained = await obtainTokens(this.#options, grant, record, discovery, wanted);
    if (obtained.requested !== undefined) this.#requested = obtained.requested;
    await this.#store.set(this.url.href, obtained.record);
  }
}
