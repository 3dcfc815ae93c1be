// OAuthSession (lib/mcp/auth/session.ts) once signed in: the client credentials grant through a
// session (tokens stored without a client, the configured client revoking them at sign-out, none
// with a private key), sign-out (no revocation endpoint, an unreachable authorization server,
// nothing stored, the client's authentication), the token to send (an expired one used as it is
// when it cannot be refreshed, an issuer the server no longer names, no expiry, the refresh skew),
// auth.getToken, stored tokens, DPoP-bound tokens and proofs, the step-up limit, and the client's
// rules (issue 19: the authorization response and the metadata, refresh, bounded DPoP nonce
// retries) through createAuthFetch. Against the OAuth pair of _oauth_server.ts, servers that hang
// or are gone, and a recording fetch (the session's `fetch`) for headers the servers do not log.
// Folded from oauth_session_mutation, oauth_session_more_mutation and oauth_rules (issue 46).
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import http from "node:http";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createAuthFetch,
  createMemoryOAuthStore,
  isOAuthError,
  OAuthSession,
  type OAuthStore,
  type TokenRequest as GetTokenRequest,
} from "../../../lib/mcp/auth/mod.ts";
import {
  approve,
  initializeThrough,
  type OAuthServerOptions,
  type OAuthServers,
  withOAuthServers as withServers,
} from "../_oauth_server.ts";
import { listenLocal } from "../_servers.ts";
import {
  CLIENT,
  expired,
  expiring,
  proofKey,
  recorder,
  REDIRECT,
  signingIn,
  withMove,
} from "./_session.ts";

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

// Rules of the OAuth client (issue 19); where a rule needs an answer the server never gives, the
// session's `fetch` rewrites that one answer.
const auth = (store: OAuthStore): AuthOptions => ({
  store,
  redirectUri: "http://127.0.0.1:9/callback",
  onAuthorize: approve,
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

const urlOf = (input: RequestInfo | URL) => new URL(input instanceof Request ? input.url : input);

/** An MCP `initialize` POST through `authed`; its status. */

describe("OAuth rules: the authorization response and the metadata", () => {
  test("a redirect without iss from a server that promises iss fails as iss_mismatch", async () => {
    await withServers({ iss: "omit" }, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const error = await failure(new OAuthSession(mcpUrl, auth(store)).signIn());
      assert.ok(isOAuthError(error, "iss_mismatch"), String(error));
      assert.match(error.message, /lacks "iss"/);
      assert.ok(!requests.some((r) => r.startsWith("token ")), "the code was not redeemed");
      assert.equal(await store.get(mcpUrl), undefined);
    });
  });

  test("metadata without code_challenge_methods_supported is refused as pkce_unsupported", async () => {
    await withServers({}, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(mcpUrl, auth(store), {
        async fetch(input, init) {
          const response = await fetch(input, init);
          if (!urlOf(input).pathname.startsWith("/.well-known/oauth-authorization-server")) {
            return response;
          }
          const { code_challenge_methods_supported: _gone, ...rest } = await response.json();
          return Response.json(rest);
        },
      });
      const error = await failure(session.signIn());
      assert.ok(isOAuthError(error, "pkce_unsupported"), String(error));
      assert.ok(!requests.includes("GET /authorize"));
      assert.ok(!requests.includes("POST /register"));
    });
  });

  test("a metadata issuer on the same origin but another path is refused as issuer_mismatch", async () => {
    const options: OAuthServerOptions = {};
    await withServers(options, async ({ mcpUrl, issuer, requests }) => {
      options.issuer = `${issuer}/tenant-b`; // read per request
      const store = createMemoryOAuthStore();
      const error = await failure(new OAuthSession(mcpUrl, auth(store)).signIn());
      assert.ok(isOAuthError(error, "issuer_mismatch"), String(error));
      assert.ok(!requests.includes("POST /register"));
      assert.equal(await store.get(mcpUrl), undefined);
    });
  });
});

describe("OAuth rules: refresh", () => {
  test("the refresh request carries resource (RFC 8707)", async () => {
    await withServers({}, async (servers) => {
      const bodies: string[] = [];
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, auth(store), {
        fetch(input, init) {
          if (urlOf(input).pathname === "/token") bodies.push(String(init?.body));
          return fetch(input, init);
        },
      });
      await session.signIn();
      servers.tokens.clear(); // the server forgets the access token: the next request refreshes
      assert.notEqual(await initializeThrough(createAuthFetch(session), servers.mcpUrl), 401);
      const refreshes = bodies.map((b) => new URLSearchParams(b))
        .filter((p) => p.get("grant_type") === "refresh_token");
      assert.equal(refreshes.length, 1, bodies.join("\n"));
      assert.equal(refreshes[0].get("resource"), servers.mcpUrl);
    });
  });

  test("a refreshed DPoP token stays DPoP-bound: the refresh carries a proof", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, auth(store));
      await session.signIn();
      const first = (await store.get(servers.mcpUrl))!.tokens!;
      assert.equal(first.tokenType, "DPoP");
      servers.tokens.clear();
      assert.notEqual(await initializeThrough(createAuthFetch(session), servers.mcpUrl), 401);
      const now = (await store.get(servers.mcpUrl))!.tokens!;
      assert.notEqual(now.accessToken, first.accessToken, "refreshed");
      assert.equal(now.tokenType, "DPoP");
      assert.equal(servers.requests.filter((r) => r === "token refresh_token").length, 1);
      assert.equal(servers.requests.filter((r) => r === "dpop token").length, 2);
      assert.ok((await session.credentials()).dpop, "the session still signs proofs");
    });
  });
});

describe("OAuth rules: DPoP nonce retries are bounded", () => {
  /** A session whose token endpoint always answers `error`, with a new DPoP nonce each time. */
  function refusing(servers: OAuthServers, error: string) {
    let tokenRequests = 0;
    let n = 0;
    const session = new OAuthSession(servers.mcpUrl, auth(createMemoryOAuthStore()), {
      async fetch(input, init) {
        if (urlOf(input).pathname !== "/token") return await fetch(input, init);
        // Bounded: a client that loops ends here instead of hanging the test.
        if (++tokenRequests > 5) throw new TypeError("the test's token endpoint gave up");
        return Response.json({ error }, {
          status: 400,
          headers: { "dpop-nonce": `nonce-${++n}`, "cache-control": "no-store" },
        });
      },
    });
    return { session, count: () => tokenRequests };
  }

  test("a server that keeps demanding a new nonce gets exactly one retry", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const { session, count } = refusing(servers, "use_dpop_nonce");
      const error = await failure(session.signIn());
      assert.ok(isOAuthError(error, "token_request_failed"), String(error));
      assert.equal(count(), 2);
    });
  });

  test("a token request that fails for another reason is not sent again", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const { session, count } = refusing(servers, "invalid_request");
      const error = await failure(session.signIn());
      assert.ok(isOAuthError(error, "token_request_failed"), String(error));
      assert.equal(count(), 1);
    });
  });

  test("a resource server that keeps demanding a new nonce gets one retry per request", async () => {
    await withServers({ dpop: true }, async (servers) => {
      const session = new OAuthSession(servers.mcpUrl, auth(createMemoryOAuthStore()));
      await session.signIn();
      const presented = new Map<string, number>(); // access token → requests carrying it
      let n = 0;
      let total = 0;
      const authed = createAuthFetch(session, (_input, init) => {
        const headers = new Headers(init?.headers);
        // Bounded: a client that loops ends here instead of hanging the test.
        if (++total > 20) return Promise.reject(new TypeError("the test's MCP server gave up"));
        assert.ok(headers.get("dpop"), "every request carries a proof");
        const token = headers.get("authorization")?.replace(/^DPoP /, "") ?? "";
        presented.set(token, (presented.get(token) ?? 0) + 1);
        return Promise.resolve(
          new Response('{"error":"use_dpop_nonce"}', {
            status: 401,
            headers: {
              "www-authenticate": 'DPoP error="use_dpop_nonce", error_description="nonce"',
              "dpop-nonce": `nonce-${++n}`,
            },
          }),
        );
      });
      assert.equal(await initializeThrough(authed, servers.mcpUrl), 401);
      assert.ok(presented.size >= 1);
      for (const [token, count] of presented) assert.equal(count, 2, `${token}: ${count}`);
    });
  });
});
