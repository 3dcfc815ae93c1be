// OAuthSession (lib/mcp/auth/session.ts), rules the second auth mutation run found no test
// holding: the scope a sign-in asks for (auth.scope, else the challenge's, else the resource's;
// offline_access only where the authorization server lists it), the resource identifier sent, a
// 401 answered with another caller's newer token, a refresh that cannot be tried or is refused,
// a 401 from a server that publishes no OAuth metadata, discovery made again on sign-in, on a 401
// and on a step-up naming its metadata (and not before a refresh), stored tokens of an issuer the
// server no longer names, tokens without an expiry, DPoP keys and proofs, the step-up limit, and
// what sign-out sends. Against the OAuth pair of _oauth_server.ts, the authorization server of
// _oauth_rogue.ts where the server moves to another one, and a plain 401 server; a recording
// fetch (the session's `fetch`) shows headers the servers do not log.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import http from "node:http";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createAuthFetch,
  createMemoryOAuthStore,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import {
  approve,
  initializeThrough,
  type OAuthServerOptions,
  type OAuthServers,
  withOAuthServers as withServers,
} from "../_oauth_server.ts";
import { type RogueServer, startRogueAuthorizationServer } from "../_oauth_rogue.ts";
import { listenLocal } from "../_servers.ts";

const REDIRECT = "http://127.0.0.1:9/callback";
const CLIENT = { clientId: "svc", clientSecret: "svc-secret" };

/** Auth options that sign in through `approve`; `asked` gets each authorization URL. */
function signingIn(store: OAuthStore, extra: Partial<AuthOptions> = {}) {
  const asked: URL[] = [];
  const auth: AuthOptions = {
    store,
    redirectUri: REDIRECT,
    onAuthorize: (url) => {
      asked.push(url);
      return approve(url);
    },
    ...extra,
  };
  return { auth, asked };
}

/** A session for `mcpUrl` signed in over a fresh store; `asked` as for `signingIn`. */
async function signedIn(mcpUrl: string) {
  const store = createMemoryOAuthStore();
  const { auth, asked } = signingIn(store);
  const session = new OAuthSession(mcpUrl, auth);
  await session.signIn();
  return { store, asked, session };
}

/** One request the session sent through its `fetch`. */
interface Sent {
  url: URL;
  headers: Headers;
  form: URLSearchParams;
}

/** A fetch for the session that records each request, then sends it as it is. */
function recorder() {
  const sent: Sent[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const body = init?.body;
    sent.push({
      url: new URL(input instanceof Request ? input.url : input),
      headers: new Headers(init?.headers),
      form: new URLSearchParams(
        typeof body === "string" || body instanceof URLSearchParams ? body : "",
      ),
    });
    return fetch(input, init);
  };
  return { sent, fetch: fetchFn };
}

/** The public key (crv, x, y) a DPoP proof carries in its header. */
function proofKey(proof: string | null): string {
  assert.ok(proof, "a DPoP proof");
  const { jwk } = JSON.parse(Buffer.from(proof.split(".")[0], "base64url").toString());
  return `${jwk.crv}:${jwk.x}:${jwk.y}`;
}

/** Run `fn` with the OAuth pair and a second authorization server the pair can name. */
async function withMove(
  fn: (servers: OAuthServers, options: OAuthServerOptions, rogue: RogueServer) => Promise<void>,
  options: OAuthServerOptions = {},
): Promise<void> {
  await withServers(options, async (servers) => {
    const rogue = await startRogueAuthorizationServer({ accept: servers.tokens });
    try {
      await fn(servers, options, rogue);
    } finally {
      await rogue.close();
    }
  });
}

/** Make the stored access token due for refresh: an hour old, a second left. */
async function expiring(store: OAuthStore, url: string): Promise<string> {
  const record = (await store.get(url))!;
  await store.set(url, {
    ...record,
    tokens: {
      ...record.tokens!,
      obtainedAt: Date.now() - 3_600_000,
      expiresAt: Date.now() + 1_000,
    },
  });
  return record.tokens!.accessToken;
}

const expired = () => ({ obtainedAt: Date.now() - 7_200_000, expiresAt: Date.now() - 3_600_000 });

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

describe("the stored token sent", () => {
  test("a token of an issuer the server no longer names is not sent", async () => {
    await withMove(async (servers, options, rogue) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, {
        store,
        redirectUri: REDIRECT,
        // The user closes the sign-in window of the new authorization server.
        onAuthorize: (url) =>
          url.origin === rogue.issuer ? Promise.reject(new Error("window closed")) : approve(url),
      });
      await session.signIn();
      const old = (await store.get(servers.mcpUrl))!.tokens!.accessToken;
      options.authorizationServers = [rogue.issuer];
      await assert.rejects(session.signIn(), /window closed/);
      assert.equal((await store.get(servers.mcpUrl))?.tokens?.accessToken, old, "still stored");
      assert.equal(await session.accessToken(), undefined);
    });
  });

  test("a token without an expiry is sent as it is, never refreshed", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
        tokens: { accessToken: "at-forever", refreshToken: "rt-1" },
      });
      assert.equal(await new OAuthSession(servers.mcpUrl, { store }).accessToken(), "at-forever");
      assert.deepEqual(servers.requests, []);
    });
  });

  test("an expired token with a refresh token but no client is sent as it is", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        tokens: { accessToken: "at-expired", refreshToken: "rt-1", ...expired() },
      });
      assert.equal(await new OAuthSession(servers.mcpUrl, { store }).accessToken(), "at-expired");
      assert.deepEqual(servers.requests, [], "nothing to refresh with: nobody asked");
    });
  });

  test("the refresh is due from expiresAt - refreshSkewMs on, that millisecond included", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, signingIn(store).auth);
      await session.signIn();
      const record = (await store.get(servers.mcpUrl))!;
      const now = Date.now();
      // Due exactly now: an hour-long token with the default 60 s skew left.
      await store.set(servers.mcpUrl, {
        ...record,
        tokens: { ...record.tokens!, obtainedAt: now - 3_600_000, expiresAt: now + 60_000 },
      });
      const realNow = Date.now;
      Date.now = () => now; // the clock stopped at the due millisecond
      let token: string | undefined;
      try {
        token = await session.accessToken();
      } finally {
        Date.now = realNow;
      }
      assert.notEqual(token, record.tokens!.accessToken);
      assert.ok(servers.requests.includes("token refresh_token"), "refreshed");
    });
  });
});

describe("DPoP", () => {
  test("a DPoP-bound token refreshed before expiry stays bound: sent with a proof", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, signingIn(store).auth);
      await session.signIn();
      const old = await expiring(store, servers.mcpUrl);
      const { token, dpop } = await session.credentials();
      assert.notEqual(token, old);
      assert.ok(dpop, "the DPoP key comes with the refreshed token");
      assert.equal((await store.get(servers.mcpUrl))?.tokens?.tokenType, "DPoP");
      assert.equal(await initializeThrough(createAuthFetch(session), servers.mcpUrl), 200);
      assert.ok(servers.requests.includes("dpop POST"), "the request carried a proof");
    });
  });

  test("one key for the session's life: the refresh proves the key the token is bound to", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const store = createMemoryOAuthStore();
      const { sent, fetch } = recorder();
      const session = new OAuthSession(servers.mcpUrl, signingIn(store).auth, { fetch });
      await session.signIn();
      await expiring(store, servers.mcpUrl);
      await session.accessToken();
      const proofs = sent.filter((s) => s.url.pathname === "/token")
        .map((s) => [s.form.get("grant_type"), proofKey(s.headers.get("dpop"))]);
      assert.deepEqual(proofs.map(([grant]) => grant), ["authorization_code", "refresh_token"]);
      assert.equal(proofs[1][1], proofs[0][1]);
    });
  });

  test("a proof goes only to an authorization server that advertises DPoP", async () => {
    const options: OAuthServerOptions = { dpop: true };
    await withServers(options, async (servers) => {
      const store = createMemoryOAuthStore();
      const { sent, fetch } = recorder();
      const session = new OAuthSession(servers.mcpUrl, signingIn(store).auth, { fetch });
      await session.signIn();
      assert.ok((await session.credentials()).dpop, "the session has a key");
      options.dpop = false; // the server stops advertising DPoP (read per request)
      await session.signIn();
      const tokens = sent.filter((s) => s.url.pathname === "/token");
      assert.equal(tokens.length, 2);
      assert.ok(tokens[0].headers.has("dpop"), "the first token request carried a proof");
      assert.equal(tokens[1].headers.get("dpop"), null);
      assert.deepEqual(await session.credentials(), {
        token: (await store.get(servers.mcpUrl))!.tokens!.accessToken,
      });
    });
  });
});

describe("the step-up limit", () => {
  test("maxStepUps step-ups (default 2), then none until a request succeeds", async () => {
    for (const [maxStepUps, allowed] of [[undefined, 2], [1, 1], [3, 3]] as const) {
      const session = new OAuthSession("https://mcp.example.com/mcp", {
        getToken: () => Promise.resolve("ext"),
        maxStepUps,
      });
      const challenge = { error: "insufficient_scope", scope: "admin" };
      for (let i = 0; i < allowed; i++) {
        assert.equal(await session.insufficientScope(challenge), true, `${maxStepUps}: ${i}`);
      }
      assert.equal(await session.insufficientScope(challenge), false, String(maxStepUps));
      session.succeeded();
      assert.equal(await session.insufficientScope(challenge), true, "the budget starts again");
    }
  });
});

describe("sign-out", () => {
  test("nothing stored, or a registration without tokens: nothing revoked, nobody asked", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const store = createMemoryOAuthStore();
      assert.deepEqual(await new OAuthSession(servers.mcpUrl, { store }).signOut(), {
        revoked: [],
      });
      const configured = new OAuthSession(servers.mcpUrl, { store, clientCredentials: CLIENT });
      assert.deepEqual(await configured.signOut(), { revoked: [] });
      await store.set(servers.mcpUrl, {
        issuer: servers.issuer,
        client: { clientId: "c", kind: "dynamic" },
      });
      assert.deepEqual(await new OAuthSession(servers.mcpUrl, { store }).signOut(), {
        revoked: [],
      });
      assert.equal(await store.get(servers.mcpUrl), undefined, "the registration is forgotten");
      assert.deepEqual(servers.requests, []);
    });
  });

  test("the client credentials client revokes with client_secret_basic, as it got the token", async () => {
    await withServers({ clientCredentials: CLIENT }, async (servers) => {
      const { sent, fetch } = recorder();
      const session = new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        clientCredentials: CLIENT,
      }, { fetch });
      await session.signIn();
      assert.deepEqual(await session.signOut(), { revoked: ["access_token"] });
      const [revoke] = sent.filter((s) => s.url.pathname === "/revoke");
      assert.equal(
        revoke.headers.get("authorization"),
        `Basic ${Buffer.from("svc:svc-secret").toString("base64")}`,
      );
      assert.equal(revoke.form.get("client_secret"), null);
    });
  });
});
