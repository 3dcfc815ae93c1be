// OAuth credentials go only to the issuer that issued them (issue 18). The user signs in at
// authorization server A (./_oauth_server.ts); then the MCP server's protected-resource metadata
// names B, a rogue server (./_oauth_rogue.ts) that logs everything it receives. On every path —
// a refresh before expiry, a 401, a step-up (403 insufficient_scope) — B must never see A's
// refresh token, client id or client secret: a dynamically registered client signs in again at
// B (new registration, new sign-in); a configured client is refused (`issuer_changed`).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { connect } from "../../../lib/mod.ts";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  isOAuthError,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import type { OAuthClientRecord } from "../../../lib/mcp/auth/types.ts";
import { authorize } from "../../../lib/mcp/auth/_authorize.ts";
import { redeemCode, refresh } from "../../../lib/mcp/auth/_grants.ts";
import { revokeTokens } from "../../../lib/mcp/auth/_revoke.ts";
import { approve, type OAuthServerOptions, startOAuthServers } from "../_oauth_server.ts";
import { withTokenEndpoint } from "../_token_endpoint.ts";
import { received, startRogueAuthorizationServer } from "../_oauth_rogue.ts";

type Path = "before expiry" | "after a 401" | "on step-up";

/** Make the stored tokens due for refresh, forget them at the server, or make it ask for scope. */
async function provoke(
  path: Path,
  store: OAuthStore,
  mcpUrl: string,
  options: OAuthServerOptions,
  tokens: Set<string>,
) {
  if (path === "before expiry") {
    const record = (await store.get(mcpUrl))!;
    record.tokens!.obtainedAt = Date.now() - 3_600_000;
    record.tokens!.expiresAt = Date.now() + 5_000; // within the refresh window, still valid
    await store.set(mcpUrl, record);
  } else if (path === "after a 401") {
    tokens.clear();
  } else {
    options.forbid = new Set(tokens);
  }
}

/** Sign in at A, switch the metadata to the rogue B, provoke `path`, then connect. */
async function scenario(path: Path, extra: Partial<AuthOptions>) {
  const options: OAuthServerOptions = { clientSecret: true };
  const servers = await startOAuthServers(options);
  const rogue = await startRogueAuthorizationServer({ accept: servers.tokens });
  const authorized: string[] = [];
  const store = createMemoryOAuthStore();
  const auth: AuthOptions = {
    store,
    redirectUri: "http://127.0.0.1:9/callback",
    onAuthorize: (url) => {
      authorized.push(url.origin);
      return approve(url);
    },
    ...extra,
  };
  try {
    await new OAuthSession(servers.mcpUrl, auth).signIn();
    const before = (await store.get(servers.mcpUrl))!;
    assert.equal(before.issuer, servers.issuer);
    const secrets = [
      before.tokens!.refreshToken!,
      before.tokens!.accessToken,
      before.client!.clientId,
      before.client!.clientSecret!,
    ];
    assert.ok(secrets.every((s) => typeof s === "string" && s.length > 0), "A issued them all");
    await provoke(path, store, servers.mcpUrl, options, servers.tokens);
    options.authorizationServers = [rogue.issuer];
    let outcome: unknown = "connected";
    try {
      const client = await connect({ name: "docs", url: servers.mcpUrl }, { auth });
      await client.listTools();
      await client.close();
    } catch (error) {
      outcome = error;
    }
    const log = received(rogue);
    for (const secret of secrets.slice(0, 1).concat(secrets.slice(2))) {
      assert.ok(!log.includes(secret), `B received A's credential ${secret.slice(0, 6)}…`);
    }
    assert.ok(!log.includes(secrets[1]), "B received A's access token");
    assert.equal(
      servers.requests.filter((r) => r === "token refresh_token").length,
      0,
      "nothing refreshed at A either: the server no longer names it",
    );
    return { outcome, rogue, authorized, store, servers };
  } finally {
    await rogue.close();
    await servers.close();
  }
}

describe("OAuth: a dynamically registered client signs in again at a new issuer", () => {
  for (const path of ["before expiry", "after a 401", "on step-up"] as const) {
    test(`${path}: new registration and sign-in at B, nothing of A's sent there`, async () => {
      const { outcome, rogue, authorized, store, servers } = await scenario(path, {});
      assert.equal(outcome, "connected", String(outcome));
      const calls = rogue.seen.map((r) => `${r.method} ${r.path}`);
      assert.ok(calls.includes("POST /register"), `a new registration at B: ${calls}`);
      assert.ok(calls.includes("POST /token"), "a new token at B");
      assert.deepEqual(authorized, [servers.issuer, rogue.issuer], "a new sign-in, at B");
      const record = (await store.get(servers.mcpUrl))!;
      assert.equal(record.issuer, rogue.issuer);
      assert.match(record.client!.clientId, /^rogue-/);
    });
  }
});

describe("OAuth: a configured client's credentials never leave its issuer", () => {
  for (const path of ["before expiry", "after a 401", "on step-up"] as const) {
    test(`${path}: refused with issuer_changed, B sees no token request`, async () => {
      const { outcome, rogue, authorized, servers } = await scenario(path, {
        clientId: "a-client",
        clientSecret: "a-secret-value",
      });
      assert.ok(isOAuthError(outcome, "issuer_changed"), String(outcome));
      const message = (outcome as Error).message;
      assert.ok(message.includes(servers.issuer) && message.includes(rogue.issuer), message);
      assert.ok(!message.includes("a-secret-value"));
      assert.deepEqual(authorized, [servers.issuer], "no sign-in at B");
      const calls = rogue.seen.map((r) => `${r.method} ${r.path}`);
      assert.ok(!calls.some((c) => c.startsWith("POST")), `B got only metadata GETs: ${calls}`);
    });
  }

  test("auth.issuer names the issuer a configured client belongs to from the start", async () => {
    const servers = await startOAuthServers({});
    try {
      const error = await new OAuthSession(servers.mcpUrl, {
        clientId: "a-client",
        clientSecret: "a-secret-value",
        issuer: "https://auth.example.com",
        redirectUri: "http://127.0.0.1:9/callback",
        onAuthorize: approve,
      }).signIn().then(() => undefined, (e) => e);
      assert.ok(isOAuthError(error, "issuer_changed"), String(error));
      assert.ok(!servers.requests.some((r) => r.startsWith("token")), "no token request");
      // Its own issuer (spelled with a trailing slash) is fine.
      await new OAuthSession(servers.mcpUrl, {
        clientId: "a-client",
        clientSecret: "a-secret-value",
        issuer: `${servers.issuer}/`,
        redirectUri: "http://127.0.0.1:9/callback",
        onAuthorize: approve,
      }).signIn();
      assert.ok(servers.requests.includes("token authorization_code"));
    } finally {
      await servers.close();
    }
  });
});

describe("OAuth: a client is bound to the issuer it was registered at", () => {
  test("the stored client names its issuer; towards B it is B's own registration", async () => {
    const { outcome, rogue, store, servers } = await scenario("after a 401", {});
    assert.equal(outcome, "connected", String(outcome));
    const record = (await store.get(servers.mcpUrl))!;
    assert.equal(record.client!.issuer, rogue.issuer);
    // What B got from the client is B's own: the client id it issued, in the form (no secret).
    const token = rogue.seen.find((r) => r.method === "POST" && r.path === "/token")!;
    assert.equal(new URLSearchParams(token.body).get("client_id"), record.client!.clientId);
  });

  test("a client filed under B but registered at A is not presented to B: B gets a new one", async () => {
    const options: OAuthServerOptions = { clientSecret: true };
    const servers = await startOAuthServers(options);
    const rogue = await startRogueAuthorizationServer({ accept: servers.tokens });
    const store = createMemoryOAuthStore();
    const authorized: string[] = [];
    const auth: AuthOptions = {
      store,
      redirectUri: "http://127.0.0.1:9/callback",
      onAuthorize: (url) => (authorized.push(url.origin), approve(url)),
    };
    try {
      await new OAuthSession(servers.mcpUrl, auth).signIn();
      const a = (await store.get(servers.mcpUrl))!;
      assert.equal(a.client!.issuer, servers.issuer, "registered at A, and it says so");
      // A record as an older version or another tool may leave it: filed under B, A's client,
      // tokens due for refresh.
      await store.set(servers.mcpUrl, {
        issuer: rogue.issuer,
        client: a.client,
        tokens: { ...a.tokens!, obtainedAt: Date.now() - 3_600_000, expiresAt: Date.now() + 5_000 },
      });
      servers.tokens.clear();
      options.authorizationServers = [rogue.issuer];
      const client = await connect({ name: "docs", url: servers.mcpUrl }, { auth });
      await client.listTools();
      await client.close();
      const log = received(rogue);
      for (const secret of [a.client!.clientId, a.client!.clientSecret!, a.tokens!.refreshToken!]) {
        assert.ok(!log.includes(secret), `B received A's credential ${secret.slice(0, 6)}…`);
      }
      const calls = rogue.seen.map((r) => `${r.method} ${r.path}`);
      assert.ok(calls.includes("POST /register"), `a new registration at B: ${calls}`);
      assert.deepEqual(authorized, [servers.issuer, rogue.issuer]);
      const record = (await store.get(servers.mcpUrl))!;
      assert.equal(record.client!.issuer, rogue.issuer);
      assert.match(record.client!.clientId, /^rogue-/);
    } finally {
      await rogue.close();
      await servers.close();
    }
  });

  test("B without registration and no configured client: a clear error, nothing sent to B", async () => {
    const options: OAuthServerOptions = { clientSecret: true };
    const servers = await startOAuthServers(options);
    const rogue = await startRogueAuthorizationServer({
      accept: servers.tokens,
      metadata: { registration_endpoint: undefined },
    });
    const store = createMemoryOAuthStore();
    const auth: AuthOptions = {
      store,
      redirectUri: "http://127.0.0.1:9/callback",
      onAuthorize: approve,
    };
    try {
      await new OAuthSession(servers.mcpUrl, auth).signIn();
      servers.tokens.clear();
      options.authorizationServers = [rogue.issuer];
      const error = await connect({ name: "docs", url: servers.mcpUrl }, { auth }).then(
        (c) => c.close().then(() => undefined),
        (e) => e,
      );
      assert.ok(isOAuthError(error, "no_client"), String(error));
      assert.match(
        error.message,
        /^docs: the authorization server http:\/\/127\.0\.0\.1:\d+ offers no/,
      );
      assert.ok(error.message.includes(rogue.issuer) && error.message.includes("auth.clientId"));
      const calls = rogue.seen.map((r) => `${r.method} ${r.path}`);
      assert.deepEqual(calls, ["GET /.well-known/oauth-authorization-server"], "only its metadata");
    } finally {
      await rogue.close();
      await servers.close();
    }
  });
});

describe("OAuth: where credentials leave, a client of another issuer is refused", () => {
  const A = "https://a.example.com";
  const foreign: OAuthClientRecord = {
    clientId: "client-of-a",
    clientSecret: "secret-of-a",
    kind: "dynamic",
    issuer: A,
  };
  const tokens = { accessToken: "at-of-a", refreshToken: "rt-of-a" };

  test("refresh, code redemption and revocation send nothing to B", async () => {
    await withTokenEndpoint(
      [{ body: { access_token: "x", token_type: "Bearer" } }],
      async (ctx, seen) => {
        const b = { ...ctx.as, revocation_endpoint: `${ctx.url}/revoke` };
        const refreshed = await refresh({ ...ctx, as: b }, foreign, tokens).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(isOAuthError(refreshed, "issuer_changed"), String(refreshed));
        assert.equal(
          refreshed.message,
          `docs: the OAuth client is registered at ${A}, not at ${ctx.url}; its credentials were not sent there`,
        );
        const redeemed = await redeemCode(
          { ...ctx, as: b },
          foreign,
          new URLSearchParams({ code: "c" }),
          "http://127.0.0.1:9/cb",
          "v".repeat(43),
        ).then(() => undefined, (e) => e);
        assert.ok(isOAuthError(redeemed, "issuer_changed"), String(redeemed));
        const revoked = await revokeTokens(b, foreign, tokens, fetch, AbortSignal.timeout(5_000));
        assert.deepEqual(revoked.revoked, []);
        assert.equal(
          revoked.warning,
          `the OAuth client is registered at ${A}, not at ${ctx.url}; the tokens were not sent there to be revoked`,
        );
        assert.deepEqual(seen, [], "not one request reached B");
        // Its own issuer's client goes through.
        await refresh({ ...ctx, as: b }, { ...foreign, issuer: ctx.url }, tokens);
        assert.equal(seen.length, 1);
      },
    );
  });

  test("the authorization URL is not built with another issuer's client id", async () => {
    const opened: URL[] = [];
    const error = await authorize(
      {
        issuer: "https://b.example.com",
        authorization_endpoint: "https://b.example.com/authorize",
      },
      foreign,
      {
        redirectUri: "http://127.0.0.1:9/cb",
        resource: "https://mcp.example.com/mcp",
        server: "docs",
      },
      (url) => (opened.push(url), Promise.resolve(url)),
    ).then(() => undefined, (e) => e);
    assert.ok(isOAuthError(error, "issuer_changed"), String(error));
    assert.deepEqual(opened, [], "onAuthorize was not called");
  });
});
