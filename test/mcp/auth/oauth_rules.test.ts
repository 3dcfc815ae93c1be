// Rules of the OAuth client (issue 19), through OAuthSession and createAuthFetch against the real
// authorization server and protected MCP server of ./_oauth_server.ts on 127.0.0.1. Where a rule
// needs an answer that server never gives (metadata without PKCE methods, a token endpoint that
// keeps asking for a DPoP nonce), the session's `fetch` rewrites that one answer.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createAuthFetch,
  createMemoryOAuthStore,
  isOAuthError,
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
