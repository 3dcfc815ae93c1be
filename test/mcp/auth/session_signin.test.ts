// OAuthSession (lib/mcp/auth/session.ts) signing in: what it needs (a redirect URI, onAuthorize, a
// client pinned to its issuer), the scope it asks for (auth.scope, else the challenge's, else the
// resource's; offline_access only where the authorization server lists it), the resource identifier
// sent, a 401 (answered with another caller's newer token, a refresh that cannot be tried or is
// refused, a server that publishes no OAuth metadata), and discovery made again on sign-in, on a
// 401 and on a step-up naming its metadata (and not before a refresh). Against the OAuth pair of
// _oauth_server.ts, the authorization server of _oauth_rogue.ts where the server moves to another
// one, and a plain 401 server.
// Folded from oauth_session_more_mutation and oauth_session_mutation (issue 46).
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createAuthFetch,
  createMemoryOAuthStore,
  OAuthSession,
} from "../../../lib/mcp/auth/mod.ts";
import { approve, withOAuthServers as withServers } from "../_oauth_server.ts";
import { listenLocal } from "../_servers.ts";
import { CLIENT, expiring, signedIn, signingIn, withMove } from "./_session.ts";

describe("the scope a sign-in asks for", () => {
  test("after a 401: auth.scope, else the challenge's, else the resource's", async () => {
    await withServers({}, async (servers) => {
      const cases: [Partial<AuthOptions>, { scope?: string } | undefined, string][] = [
        [{}, undefined, "mcp offline_access"],
        [{}, {}, "mcp offline_access"],
        [{}, { scope: "files:read files:write" }, "files:read files:write offline_access"],
        [{ scope: "admin" }, { scope: "files:read" }, "admin offline_access"],
      ];
      for (const [extra, challenge, scope] of cases) {
        const { auth, asked } = signingIn(createMemoryOAuthStore(), extra);
        const session = new OAuthSession(servers.mcpUrl, auth);
        assert.equal(await session.unauthorized(challenge, undefined), true);
        assert.equal(asked[0].searchParams.get("scope"), scope, JSON.stringify([extra, challenge]));
      }
    });
  });

  test("auth.scope is a list: whitespace around and between its scopes is not sent", async () => {
    await withServers({}, async (servers) => {
      const { auth, asked } = signingIn(createMemoryOAuthStore(), { scope: " files:read\tmcp " });
      await new OAuthSession(servers.mcpUrl, auth).signIn();
      assert.equal(asked[0].searchParams.get("scope"), "files:read mcp offline_access");
    });
  });

  test("the resource's scopes are joined by spaces; a resource that lists none asks for none", async () => {
    for (
      const [resourceScopes, scope] of [
        [["mcp", "files:read"], "mcp files:read offline_access"],
        [null, "offline_access"],
      ] as const
    ) {
      await withServers({ resourceScopes: resourceScopes as string[] | null }, async (servers) => {
        const { auth, asked } = signingIn(createMemoryOAuthStore());
        await new OAuthSession(servers.mcpUrl, auth).signIn();
        assert.equal(asked[0].searchParams.get("scope"), scope);
      });
    }
  });

  test("offline_access is asked for only when the authorization server lists it", async () => {
    await withMove(async (servers, options, rogue) => {
      options.authorizationServers = [rogue.issuer];
      const store = createMemoryOAuthStore();
      const { auth, asked } = signingIn(store);
      await new OAuthSession(servers.mcpUrl, auth).signIn();
      assert.equal(asked[0].origin, rogue.issuer);
      assert.equal(asked[0].searchParams.get("scope"), "mcp");
      assert.equal((await store.get(servers.mcpUrl))?.issuer, rogue.issuer);
    });
  });
});

describe("the resource a sign-in names", () => {
  test("the protected-resource metadata's identifier, not the URL the session was made for", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const { auth, asked } = signingIn(store);
      const url = `${servers.mcpUrl}?tenant=a`;
      await new OAuthSession(url, auth).signIn();
      assert.equal(asked[0].searchParams.get("resource"), servers.mcpUrl);
      assert.ok(servers.tokens.has((await store.get(url))!.tokens!.accessToken), "signed in");
    });
  });

  test("a server without protected-resource metadata is its own resource and authorization server", async () => {
    await withServers({}, async (servers) => {
      // The authorization server's origin as the MCP server: no protected-resource metadata
      // there (2025-03-26), the authorization server's metadata at the origin.
      const url = `${servers.issuer}/mcp`;
      const store = createMemoryOAuthStore();
      const { auth, asked } = signingIn(store);
      await new OAuthSession(url, auth).signIn();
      assert.ok(
        servers.requests.includes("GET /.well-known/oauth-protected-resource/mcp"),
        "protected-resource metadata looked for",
      );
      assert.equal(asked[0].searchParams.get("resource"), url);
      assert.equal(asked[0].searchParams.get("scope"), "offline_access");
      const record = await store.get(url);
      assert.equal(record?.issuer, servers.issuer);
      assert.ok(servers.tokens.has(record!.tokens!.accessToken), "signed in");
    });
  });
});

describe("a 401", () => {
  test("to a token older than the stored one: the stored one is tried, nothing asked", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const { auth } = signingIn(store);
      const first = new OAuthSession(servers.mcpUrl, auth);
      await first.signIn();
      const old = (await first.accessToken())!;
      // Another process sharing the store refreshes the token after its own 401.
      servers.tokens.delete(old);
      assert.equal(await new OAuthSession(servers.mcpUrl, auth).unauthorized(undefined, old), true);
      const fresh = (await store.get(servers.mcpUrl))!.tokens!.accessToken;
      assert.notEqual(fresh, old);
      servers.requests.length = 0;
      assert.equal(await first.unauthorized(undefined, old), true);
      assert.deepEqual(servers.requests, [], "no discovery, no refresh");
      assert.equal(await first.accessToken(), fresh);
    });
  });

  test("from a server that publishes no OAuth metadata, with no way to sign in: handed back, not retried", async () => {
    let calls = 0;
    const server = await listenLocal(http.createServer((req, res) => {
      if (req.url === "/mcp") calls++;
      res.writeHead(401, { "content-type": "text/plain" }).end("an API key is needed");
    }));
    try {
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const session = new OAuthSession(url, { store: createMemoryOAuthStore() });
      const response = await createAuthFetch(session)(url, { method: "POST", body: "{}" });
      assert.equal(response.status, 401);
      assert.equal(await response.text(), "an API key is needed");
      assert.equal(calls, 1);
      assert.equal(await session.unauthorized(undefined, undefined), false);
    } finally {
      await server.close();
    }
  });

  test("a refresh token without its client is not used: a new sign-in", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        tokens: { accessToken: "at-orphan", refreshToken: "rt-orphan" },
      });
      const { auth, asked } = signingIn(store);
      assert.equal(
        await new OAuthSession(servers.mcpUrl, auth).unauthorized(undefined, "at-orphan"),
        true,
      );
      assert.equal(asked.length, 1);
      assert.ok(!servers.requests.includes("token refresh_token"), "no refresh tried");
      const record = await store.get(servers.mcpUrl);
      assert.ok(record?.client, "registered");
      assert.ok(servers.tokens.has(record.tokens!.accessToken), "signed in");
    });
  });

  test("client credentials: a stored token without a refresh token is replaced through the grant", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const store = createMemoryOAuthStore();
      // A record of an earlier sign-in with a client, whose server issued no refresh token.
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
        tokens: { accessToken: "at-gone" },
      });
      const session = new OAuthSession(servers.mcpUrl, { store, clientCredentials: CLIENT });
      assert.equal(await session.unauthorized(undefined, "at-gone"), true);
      assert.ok(servers.requests.includes("token client_credentials"), "the grant used");
      assert.ok(!servers.requests.includes("token refresh_token"), "no refresh tried");
      assert.ok(servers.tokens.has((await session.accessToken())!), "a valid token");
    });
  });

  test("a refused refresh is followed by a new sign-in when onAuthorize can open one", async () => {
    await withServers({ refusedRefresh: true }, async (servers) => {
      const { asked, session } = await signedIn(servers.mcpUrl);
      const old = (await session.accessToken())!;
      servers.tokens.clear();
      servers.requests.length = 0;
      assert.equal(await session.unauthorized(undefined, old), true);
      const grants = servers.requests.filter((r) => r.startsWith("token "));
      assert.deepEqual(grants, ["token refresh_token", "token authorization_code"]);
      assert.equal(asked.length, 2);
      assert.ok(servers.tokens.has((await session.accessToken())!), "a valid token");
    });
  });

  test("auth.getToken: 401s to the same token at once ask for one new token", async () => {
    const reasons: string[] = [];
    const session = new OAuthSession("https://mcp.example.com/mcp", {
      getToken: (request) => {
        reasons.push(request.reason);
        return Promise.resolve(`ext-${reasons.length}`);
      },
    });
    const refused = (await session.accessToken())!;
    assert.deepEqual(
      await Promise.all([1, 2, 3].map(() => session.unauthorized(undefined, refused))),
      [true, true, true],
    );
    assert.deepEqual(reasons, ["initial", "unauthorized"], "the later 401s take the new token");
    assert.equal(await session.accessToken(), "ext-2");
  });

  test("auth.getToken: a 401 before the session handed out any token asks for one", async () => {
    const reasons: string[] = [];
    const session = new OAuthSession("https://mcp.example.com/mcp", {
      getToken: (request) => {
        reasons.push(request.reason);
        return Promise.resolve("ext-1");
      },
    });
    assert.equal(await session.unauthorized(undefined, "another-sessions-token"), true);
    assert.deepEqual(reasons, ["unauthorized"]);
    assert.equal(await session.accessToken(), "ext-1");
    assert.deepEqual(reasons, ["unauthorized"]);
  });
});

describe("discovery", () => {
  test("a refresh before expiry uses the sign-in's discovery: no metadata asked again", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, signingIn(store).auth);
      await session.signIn();
      const old = await expiring(store, servers.mcpUrl);
      servers.requests.length = 0;
      assert.notEqual(await session.accessToken(), old);
      assert.deepEqual(servers.requests, ["POST /token", "token refresh_token"]);
    });
  });

  test("signIn discovers again: a server that moved to another authorization server is followed", async () => {
    await withMove(async (servers, options, rogue) => {
      const { store, asked, session } = await signedIn(servers.mcpUrl);
      options.authorizationServers = [rogue.issuer];
      await session.signIn();
      assert.deepEqual(asked.map((u) => u.origin), [servers.issuer, rogue.issuer]);
      assert.equal((await store.get(servers.mcpUrl))?.issuer, rogue.issuer);
    });
  });

  test("a 401 without resource_metadata discovers again: the old issuer's refresh token stays there", async () => {
    await withMove(async (servers, options, rogue) => {
      const { store, asked, session } = await signedIn(servers.mcpUrl);
      const old = (await session.accessToken())!;
      options.authorizationServers = [rogue.issuer];
      servers.tokens.clear();
      assert.equal(await session.unauthorized(undefined, old), true);
      assert.ok(!servers.requests.includes("token refresh_token"), "no refresh tried");
      assert.deepEqual(asked.map((u) => u.origin), [servers.issuer, rogue.issuer]);
      assert.equal((await store.get(servers.mcpUrl))?.issuer, rogue.issuer);
    });
  });

  test("a step-up naming resource_metadata discovers from it: the server's new authorization server", async () => {
    await withMove(async (servers, options, rogue) => {
      const { store, asked, session } = await signedIn(servers.mcpUrl);
      options.authorizationServers = [rogue.issuer];
      const resourceMetadata = `${
        new URL(servers.mcpUrl).origin
      }/.well-known/oauth-protected-resource/mcp`;
      assert.equal(
        await session.insufficientScope({
          error: "insufficient_scope",
          scope: "admin",
          resourceMetadata,
        }),
        true,
      );
      assert.deepEqual(asked.map((u) => u.origin), [servers.issuer, rogue.issuer]);
      assert.equal(asked[1].searchParams.get("scope"), "mcp offline_access admin");
      assert.equal((await store.get(servers.mcpUrl))?.issuer, rogue.issuer);
    });
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
