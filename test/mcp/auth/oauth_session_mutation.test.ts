// OAuthSession (lib/mcp/auth/session.ts), rules the first auth mutation run found no test
// holding: the client credentials grant through a session (tokens stored without a client, the
// configured client revoking them at sign-out, none with a private key), sign-out when the
// authorization server has no revocation endpoint or cannot be reached, an expired token used as
// it is when it cannot be refreshed, an auth.getToken token newer than the one refused, and a
// configured client pinned to an issuer that is not a URL. Against the OAuth pair of
// _oauth_server.ts (its client_credentials grant) and servers that hang or are gone.
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  OAuthSession,
  type TokenRequest as GetTokenRequest,
} from "../../../lib/mcp/auth/mod.ts";
import { approve, withOAuthServers as withServers } from "../_oauth_server.ts";
import { listenLocal } from "../_servers.ts";

const CLIENT = { clientId: "svc", clientSecret: "svc-secret" };

describe("the client credentials grant through a session", () => {
  test("signs in without a user, stores no client, and revokes with the configured one", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, {
        store,
        clientCredentials: { ...CLIENT, scope: "mcp" },
      });
      await session.signIn();
      const record = await store.get(servers.mcpUrl);
      assert.equal(record?.issuer, servers.issuer);
      assert.equal(record?.client, undefined, "the configured client is not stored");
      assert.equal(record?.tokens?.scope, "mcp");
      assert.ok(servers.tokens.has(record!.tokens!.accessToken));
      assert.ok(servers.requests.includes("token client_credentials"));
      assert.equal(await session.accessToken(), record!.tokens!.accessToken);
      const out = await session.signOut();
      assert.deepEqual(out, { revoked: ["access_token"] });
      assert.deepEqual(servers.revoked, [record!.tokens!.accessToken]);
      assert.equal(await store.get(servers.mcpUrl), undefined);
    });
  });

  test("a private-key client cannot authenticate a revocation: tokens are only forgotten", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await store.set(servers.mcpUrl, { issuer: servers.issuer, tokens: { accessToken: "at-x" } });
      const { privateKey } = await crypto.subtle.generateKey(
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["sign", "verify"],
      );
      const session = new OAuthSession(servers.mcpUrl, {
        store,
        clientCredentials: { clientId: "svc", privateKey },
      });
      assert.deepEqual(await session.signOut(), { revoked: [] });
      assert.equal(servers.requests.some((r) => r.startsWith("revoke")), false);
      assert.equal(await store.get(servers.mcpUrl), undefined);
    });
  });

  test("tokens stored without a client and no configured one: nothing to revoke with", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await store.set(servers.mcpUrl, { issuer: servers.issuer, tokens: { accessToken: "at-y" } });
      const session = new OAuthSession(servers.mcpUrl, { store });
      assert.deepEqual(await session.signOut(), { revoked: [] });
      assert.equal(servers.requests.some((r) => r.startsWith("revoke")), false);
    });
  });

  test("a configured client pinned to an issuer that is not a URL is never sent elsewhere", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const session = new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        clientCredentials: CLIENT,
        issuer: "example-as", // not a URL: compared as a string
      });
      const error = await session.signIn().catch((e) => e);
      assert.equal(error?.code, "issuer_changed");
      assert.equal(servers.requests.some((r) => r.startsWith("token")), false);
    });
  });
});

describe("sign-out", () => {
  test("no revocation endpoint: the tokens are forgotten without a warning", async () => {
    await withServers({ clientCredentials: CLIENT, noRevocation: true }, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, { store, clientCredentials: CLIENT });
      await session.signIn();
      assert.deepEqual(await session.signOut(), { revoked: [] });
      assert.equal(await store.get(servers.mcpUrl), undefined);
    });
  });

  test("an authorization server that cannot be reached, or not in time: a warning saying so", async () => {
    const store = createMemoryOAuthStore();
    const record = {
      issuer: "http://127.0.0.1:9",
      client: { clientId: "c", kind: "dynamic" as const },
      tokens: { accessToken: "at-z" },
    };
    // A server that is gone.
    const gone = await listenLocal(http.createServer());
    await gone.close();
    const goneUrl = `http://127.0.0.1:${gone.port}/mcp`;
    await store.set(goneUrl, record);
    const unreachable = await new OAuthSession(goneUrl, { store }).signOut();
    assert.deepEqual(unreachable.revoked, []);
    assert.match(
      unreachable.warning!,
      /^could not reach the authorization server to revoke the tokens \(127\.0\.0\.1:\d+: GET .* failed\)$/,
    );
    assert.equal(await store.get(goneUrl), undefined, "forgotten anyway");
    // A server that never answers.
    const hung = await listenLocal(http.createServer(() => {}));
    try {
      const hungUrl = `http://127.0.0.1:${hung.port}/mcp`;
      await store.set(hungUrl, record);
      const late = await new OAuthSession(hungUrl, { store }).signOut({ timeoutMs: 200 });
      assert.deepEqual(late, {
        revoked: [],
        warning:
          "could not reach the authorization server to revoke the tokens (no answer in time)",
      });
    } finally {
      await hung.close();
    }
  });
});

describe("the token to send", () => {
  test("an expired token without a refresh token is sent as it is; a refused refresh forgets it", async () => {
    await withServers({ refusedRefresh: true }, async (servers) => {
      const store = createMemoryOAuthStore();
      const expired = { obtainedAt: Date.now() - 7_200_000, expiresAt: Date.now() - 3_600_000 };
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
        tokens: { accessToken: "at-no-refresh", ...expired },
      });
      const session = new OAuthSession(servers.mcpUrl, { store });
      assert.equal(await session.accessToken(), "at-no-refresh");
      assert.equal(servers.requests.some((r) => r.startsWith("token")), false);
      // With a refresh token the server refuses (invalid_grant): the grant is dead, so the
      // tokens are forgotten (the registration stays) and nothing is sent: the 401 signs in.
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
        tokens: { accessToken: "at-refused", refreshToken: "rt-unknown", ...expired },
      });
      const again = new OAuthSession(servers.mcpUrl, { store });
      assert.equal(await again.accessToken(), undefined);
      assert.ok(servers.requests.includes("token refresh_token"));
      assert.deepEqual(await store.get(servers.mcpUrl), {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
      });
    });
  });

  test("auth.getToken: a token newer than the refused one is tried without asking again", async () => {
    let calls = 0;
    const session = new OAuthSession("https://mcp.example.com/mcp", {
      getToken: () => Promise.resolve(`ext-${++calls}`),
    });
    assert.equal(await session.accessToken(), "ext-1");
    assert.equal(await session.unauthorized(undefined, "ext-0"), true);
    assert.equal(calls, 1, "the refused token was an older one");
    assert.equal(await session.unauthorized(undefined, "ext-1"), true);
    assert.equal(calls, 2, "the current token refused: a new one is asked for");
  });
});

describe("the sign-in asked for", () => {
  /** Sign in with `options`; the scope the authorization URL asked for. */
  async function askedScope(options: Partial<AuthOptions>): Promise<string | null> {
    let scope: string | null = null;
    await withServers({}, async (servers) => {
      await new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        redirectUri: "http://127.0.0.1:9/callback",
        onAuthorize: (url) => {
          scope = url.searchParams.get("scope");
          return approve(url);
        },
        ...options,
      }).signIn();
    });
    return scope;
  }

  test("the resource's scopes by default, offline_access added when the server lists it", async () => {
    assert.equal(await askedScope({}), "mcp offline_access");
    assert.equal(
      await askedScope({ scope: "files:read  files:read mcp" }),
      "files:read mcp offline_access",
    );
  });

  test("no redirect URI, or no onAuthorize: sign_in_required saying which is missing", async () => {
    await withServers({}, async (servers) => {
      const noRedirect = await new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        onAuthorize: approve,
      }, { server: "docs" }).signIn().catch((e) => e);
      assert.equal(noRedirect.code, "sign_in_required");
      assert.equal(noRedirect.server, "docs");
      assert.equal(
        noRedirect.message,
        `docs: sign-in needed (OAuth, authorization server ${servers.issuer}), but auth.redirectUri is missing: set the URL the sign-in redirects back to (e.g. http://127.0.0.1:<port>/callback, where onAuthorize receives it)`,
      );
      const noCallback = await new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        redirectUri: "http://127.0.0.1:9/callback",
      }, { server: "docs" }).signIn().catch((e) => e);
      assert.equal(
        noCallback.message,
        `docs: sign-in needed (OAuth, authorization server ${servers.issuer}), but no auth.onAuthorize callback was given to open it`,
      );
    });
  });

  test("a configured client pinned to another issuer: the whole reason, and the server", async () => {
    await withServers({}, async (servers) => {
      const error = await new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        clientId: "pre",
        issuer: "https://other.example.com",
        redirectUri: "http://127.0.0.1:9/callback",
        onAuthorize: approve,
      }, { server: "docs" }).signIn().catch((e) => e);
      assert.equal(error.code, "issuer_changed");
      assert.equal(error.server, "docs");
      assert.equal(
        error.message,
        `docs: the configured OAuth client belongs to the authorization server https://other.example.com, but the server now names ${servers.issuer}; its credentials were not sent there (set auth.issuer and a client registered at ${servers.issuer}, or sign out to start over)`,
      );
    });
  });
});

describe("auth.getToken", () => {
  test("two callers at once ask once; the request names the server, resource and challenge", async () => {
    const requests: GetTokenRequest[] = [];
    const session = new OAuthSession("https://mcp.example.com/mcp", {
      getToken: (request) => {
        requests.push(request);
        return Promise.resolve(`ext-${requests.length}`);
      },
    }, { server: "docs" });
    assert.deepEqual(await Promise.all([session.accessToken(), session.credentials()]), [
      "ext-1",
      { token: "ext-1" },
    ]);
    await session.unauthorized({
      resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
      scope: "files:read",
    }, "ext-1");
    assert.deepEqual(requests, [
      { reason: "initial", server: "docs", resource: "https://mcp.example.com/mcp" },
      {
        reason: "unauthorized",
        server: "docs",
        resource: "https://mcp.example.com/mcp",
        scope: "files:read",
        resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
      },
    ]);
  });

  test("no token, or an empty one, is sign_in_required naming the reason", async () => {
    for (const given of [undefined, "", 42]) {
      const session = new OAuthSession("https://mcp.example.com/mcp", {
        getToken: () => Promise.resolve(given as unknown as string),
      }, { server: "docs" });
      const error = await session.accessToken().catch((e) => e);
      assert.equal(error.code, "sign_in_required", String(given));
      assert.equal(error.server, "docs");
      assert.equal(
        error.message,
        "docs: auth.getToken (initial) gave no token; it must resolve with a non-empty string",
      );
    }
  });
});

describe("stored tokens", () => {
  test("a bearer token is sent without a DPoP key; an expired one without a refresh token asks nobody", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const client = { clientId: "c", kind: "dynamic" as const };
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client,
        tokens: { accessToken: "at-1" },
      });
      const session = new OAuthSession(servers.mcpUrl, { store });
      assert.deepEqual(await session.credentials(), { token: "at-1" });
      const past = Date.now() - 1_000;
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client,
        tokens: { accessToken: "at-old", obtainedAt: past - 60_000, expiresAt: past },
      });
      servers.requests.length = 0;
      assert.deepEqual(await new OAuthSession(servers.mcpUrl, { store }).credentials(), {
        token: "at-old",
      });
      assert.deepEqual(servers.requests, [], "no discovery, no token request");
    });
  });

  test("an expiring token is refreshed first, and the new one sent as a bearer token", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, {
        store,
        redirectUri: "http://127.0.0.1:9/callback",
        onAuthorize: approve,
      });
      await session.signIn();
      const record = (await store.get(servers.mcpUrl))!;
      await store.set(servers.mcpUrl, {
        ...record,
        // An hour-long token with a second left: inside the 60 s refresh skew.
        tokens: {
          ...record.tokens!,
          obtainedAt: Date.now() - 3_600_000,
          expiresAt: Date.now() + 1_000,
        },
      });
      const credentials = await session.credentials();
      assert.notEqual(credentials.token, record.tokens!.accessToken);
      assert.deepEqual(credentials, {
        token: (await store.get(servers.mcpUrl))!.tokens!.accessToken,
      });
      assert.ok(servers.requests.includes("token refresh_token"));
    });
  });

  test("client credentials without a scope of their own ask for the resource's", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, { store, clientCredentials: CLIENT }).signIn();
      assert.equal((await store.get(servers.mcpUrl))?.tokens?.scope, "mcp");
    });
  });
});
