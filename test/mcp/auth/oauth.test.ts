// OAuth sign-in through connect({ auth }) against a real authorization server and a protected
// MCP server (./_oauth_server.ts) on 127.0.0.1: discovery, registration, PKCE, tokens, refresh
// (before expiry, on a 401, single-flight), the store, a token from auth.getToken, and bad input
// and setup errors as typed errors that say what is missing.
import assert from "node:assert/strict";
import http from "node:http";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import {
  connect,
  createMemoryStorage,
  createServerRegistry,
  isMcpError,
} from "../../../lib/mod.ts";
import { isOAuthError, PolicyError } from "../../../lib/mcp/mod.ts";
import { createSecretBox } from "../../../lib/mcp/mod.ts";
import {
  type AuthOptions,
  authorizationServerMetadataUrls,
  createMemoryOAuthStore,
  createOAuthStore,
  OAuthSession,
  type OAuthStore,
  parseBearerChallenge,
  type TokenRequest,
} from "../../../lib/mcp/auth/mod.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import {
  approve,
  type OAuthServerOptions,
  startOAuthServers,
  withOAuthServers as withServers,
} from "../_oauth_server.ts";
import { listenLocal, startSdkServer } from "../_servers.ts";

function auth(store: OAuthStore, extra: Partial<AuthOptions> = {}): AuthOptions {
  return { store, redirectUri: "http://127.0.0.1:9/callback", onAuthorize: approve, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("OAuth: sign-in through connect({ auth })", () => {
  test("discovers, registers, signs in with PKCE, and reuses the stored tokens", async () => {
    await withServers({}, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const client = await connect({ name: "docs", url: mcpUrl }, { auth: auth(store) });
      assert.ok((await client.listTools()).some((t) => t.name === "echo"));
      await client.close();
      const record = await store.get(mcpUrl);
      assert.ok(record?.tokens?.accessToken.startsWith("at-"));
      assert.equal(record?.client?.kind, "dynamic");
      assert.equal(requests.filter((r) => r === "GET /authorize").length, 1);
      assert.ok(requests.includes("GET /.well-known/oauth-protected-resource/mcp"));
      // The next connection uses the stored token: no new sign-in.
      const again = await connect({ name: "docs", url: mcpUrl }, { auth: auth(store) });
      await again.listTools();
      await again.close();
      assert.equal(requests.filter((r) => r === "GET /authorize").length, 1);
      assert.equal(requests.filter((r) => r === "POST /register").length, 1);
    });
  });

  test("refreshes a token past half its life once, however many requests wait for it", async () => {
    await withServers({ expiresIn: 2 }, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(mcpUrl, auth(store, { refreshSkewMs: 60_000 }));
      await session.signIn();
      const first = (await store.get(mcpUrl))!.tokens!.accessToken;
      assert.equal(await session.accessToken(), first, "fresh: no refresh yet");
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const tokens = await Promise.all(Array.from({ length: 5 }, () => session.accessToken()));
      assert.equal(requests.filter((r) => r === "token refresh_token").length, 1);
      assert.equal(new Set(tokens).size, 1);
      assert.notEqual(tokens[0], first);
    });
  });

  test("a 401 to a stored token refreshes it and the request goes through", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      servers.tokens.clear(); // the server forgets every access token
      const client = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: auth(store, { onAuthorize: () => Promise.reject(new Error("no browser here")) }),
      });
      await client.listTools();
      await client.close();
      assert.equal(servers.requests.filter((r) => r === "token refresh_token").length, 1);
    });
  });

  test("without onAuthorize a server that needs a sign-in is a sign_in_required error", async () => {
    await withServers({}, async ({ mcpUrl }) => {
      const error = await failure(
        connect({ name: "docs", url: mcpUrl }, { auth: { store: createMemoryOAuthStore() } }),
      );
      assert.ok(isOAuthError(error, "sign_in_required"), String(error));
      assert.match(error.message, /sign-in needed/);
    });
  });
});

test("OAuth: a 401 from a server without OAuth metadata stays an HttpError 401", async () => {
  const server = await startSdkServer({
    guard(_req, res) {
      res.writeHead(401, { "content-type": "text/plain" }).end("bad api key");
      return true;
    },
  });
  try {
    const store = createMemoryOAuthStore();
    const error = await failure(
      connect({ name: "keyed", url: server.url, apiKey: "k1" }, { auth: { store } }),
    );
    assert.ok(isMcpError(error, "HttpError") && error.status === 401, String(error));
    assert.equal(await store.get(server.url), undefined);
  } finally {
    await server.close();
  }
});

test("OAuth: a registry pings a server that needs a sign-in as 'sign-in needed'", async () => {
  await withServers({}, async ({ mcpUrl }) => {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "docs", url: mcpUrl }, { discover: false });
    const [result] = await registry.ping(["docs"]);
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.kind === "OAuthError" && /sign-in needed/.test(result.error));
    // The code a host acts on (a "Sign in" button), on the row and in the kept status.
    assert.equal(!result.ok && result.code, "sign_in_required");
    assert.equal((await registry.get("docs"))?.status?.code, "sign_in_required");
  });
});

describe("OAuth: bad input is a typed error and nothing is stored", () => {
  const cases: Array<[string, OAuthServerOptions, string, RegExp]> = [
    [
      "metadata naming another issuer",
      { issuer: "https://evil.example" },
      "issuer_mismatch",
      /issuer/,
    ],
    ["an iss that is not the issuer", { iss: "wrong" }, "iss_mismatch", /iss/],
    ["a redirect with a wrong state", { state: "wrong" }, "state_mismatch", /state/],
    ["a token endpoint answering HTML", { tokenHtml: true }, "invalid_token_response", /JSON/],
    ["a server without PKCE S256", { noS256: true }, "pkce_unsupported", /S256/],
  ];
  for (const [what, options, code, message] of cases) {
    test(what, async () => {
      await withServers(options, async ({ mcpUrl, requests }) => {
        const store = createMemoryOAuthStore();
        const error = await failure(connect({ name: "docs", url: mcpUrl }, { auth: auth(store) }));
        assert.ok(isOAuthError(error, code as never), `${code}: ${error}`);
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /at-|rt-|code_verifier/);
        assert.equal(await store.get(mcpUrl), undefined);
        if (code === "iss_mismatch" || code === "state_mismatch") {
          assert.ok(!requests.some((r) => r.startsWith("token ")), "the code was not redeemed");
        }
      });
    });
  }

  test("a client metadata URL that is not https is refused before any registration", async () => {
    await withServers({}, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const error = await failure(
        connect({ name: "docs", url: mcpUrl }, {
          auth: auth(store, { clientMetadataUrl: "http://client.example/meta.json" }),
        }),
      );
      assert.ok(isOAuthError(error, "no_client"), String(error));
      assert.match(error.message, /clientMetadataUrl must be an https URL/);
      assert.ok(!requests.includes("POST /register"));
      assert.equal(await store.get(mcpUrl), undefined);
    });
  });

  test("every OAuth URL passes the URL check first (connect() gives its URL policy)", async () => {
    await withServers({}, async ({ mcpUrl, issuer, requests }) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(mcpUrl, auth(store), {
        checkUrl: (url) =>
          url.origin === issuer
            ? Promise.reject(new PolicyError(`refused ${url.origin}`, { field: "url" }))
            : Promise.resolve(),
      });
      const error = await failure(session.signIn());
      assert.ok(isMcpError(error, "PolicyError"), String(error));
      assert.ok(!requests.some((r) => r.includes("oauth-authorization-server")));
      assert.equal(await store.get(mcpUrl), undefined);
    });
  });

  test("a refused (expired) refresh token asks for a new sign-in", async () => {
    const options: OAuthServerOptions = {};
    await withServers(options, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      const before = await store.get(servers.mcpUrl);
      servers.tokens.clear();
      options.refusedRefresh = true;
      const error = await failure(
        connect({ name: "docs", url: servers.mcpUrl }, { auth: { store } }),
      );
      assert.ok(isOAuthError(error, "reauth_required"), String(error));
      assert.doesNotMatch(error.message, new RegExp(before!.tokens!.refreshToken!));
      assert.deepEqual(
        await store.get(servers.mcpUrl),
        { issuer: before!.issuer, client: before!.client },
        "the dead tokens are forgotten, the registration kept",
      );
    });
  });
});

describe("OAuth: DPoP (RFC 9449) when the authorization server advertises it", () => {
  test("tokens are bound to the session's key and every MCP request carries a fresh proof", async () => {
    await withServers({ dpop: true }, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const client = await connect({ name: "docs", url: mcpUrl }, { auth: auth(store) });
      await client.listTools();
      await client.callTool("echo", { text: "hi" });
      await client.close();
      // The server accepts a bound token only as `DPoP` with a valid proof whose jti is new.
      assert.equal((await store.get(mcpUrl))?.tokens?.tokenType, "DPoP");
      assert.equal(requests.filter((r) => r === "dpop token").length, 1);
      assert.ok(requests.filter((r) => r === "dpop POST").length >= 3, String(requests));
    });
  });

  test("a stored DPoP-bound token without its key (another process) means a new sign-in", async () => {
    await withServers({ dpop: true }, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(mcpUrl, auth(store)).signIn();
      const client = await connect({ name: "docs", url: mcpUrl }, { auth: auth(store) });
      await client.listTools();
      await client.close();
      assert.equal(requests.filter((r) => r === "GET /authorize").length, 2);
      assert.equal(requests.filter((r) => r === "dpop token").length, 2);
    });
  });

  test("dpop: false keeps bearer tokens", async () => {
    await withServers({ dpop: true }, async ({ mcpUrl, requests }) => {
      const store = createMemoryOAuthStore();
      const client = await connect({ name: "docs", url: mcpUrl }, {
        auth: auth(store, { dpop: false }),
      });
      await client.listTools();
      await client.close();
      assert.equal((await store.get(mcpUrl))?.tokens?.tokenType, undefined);
      assert.ok(!requests.some((r) => r.startsWith("dpop")), String(requests));
    });
  });
});

describe("OAuth: pieces", () => {
  test("parseBearerChallenge reads resource_metadata, scope and error", () => {
    assert.deepEqual(
      parseBearerChallenge('DPoP error="use_dpop_nonce", resource_metadata="https://a.example/m"'),
      { resourceMetadata: "https://a.example/m", error: "use_dpop_nonce" },
    );
    assert.deepEqual(
      parseBearerChallenge(
        'Basic realm="x", Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope="a b", error="insufficient_scope"',
      ),
      {
        resourceMetadata: "https://a.example/.well-known/oauth-protected-resource",
        scope: "a b",
        error: "insufficient_scope",
      },
    );
    assert.equal(parseBearerChallenge('Basic realm="x"'), undefined);
    assert.equal(parseBearerChallenge(null), undefined);
  });

  test("authorization server metadata URLs follow the spec's order", () => {
    assert.deepEqual(authorizationServerMetadataUrls(new URL("https://a.example/t1")).map(String), [
      "https://a.example/.well-known/oauth-authorization-server/t1",
      "https://a.example/.well-known/openid-configuration/t1",
      "https://a.example/t1/.well-known/openid-configuration",
    ]);
    assert.deepEqual(authorizationServerMetadataUrls(new URL("https://a.example")).map(String), [
      "https://a.example/.well-known/oauth-authorization-server",
      "https://a.example/.well-known/openid-configuration",
    ]);
  });

  test("the fs store writes 0600 files with the secrets sealed", async () => {
    const root = await mkdtemp(join(tmpdir(), "skillmux-oauth-"));
    try {
      const box = createSecretBox({ key: crypto.getRandomValues(new Uint8Array(32)) });
      const store = createOAuthStore(createFsStorage({ root, private: true }), { box });
      const record = {
        issuer: "https://auth.example",
        client: { clientId: "c1", clientSecret: "cs-secret", kind: "dynamic" as const },
        tokens: { accessToken: "at-secret", refreshToken: "rt-secret" },
      };
      await store.set("https://mcp.example/mcp", record);
      const [file] = await readdir(join(root, "oauth"));
      const path = join(root, "oauth", file);
      if (process.platform !== "win32") assert.equal((await stat(path)).mode & 0o777, 0o600);
      assert.doesNotMatch(await readFile(path, "utf8"), /-secret/);
      assert.deepEqual(await store.get("https://mcp.example/mcp"), record);
      await store.delete("https://mcp.example/mcp");
      assert.equal(await store.get("https://mcp.example/mcp"), undefined);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test("signOut() sends tokens to be revoked only to the issuer that issued them", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      const record = (await store.get(servers.mcpUrl))!;
      await store.set(servers.mcpUrl, { ...record, issuer: "https://other.example" });
      const result = await new OAuthSession(servers.mcpUrl, auth(store)).signOut();
      assert.deepEqual(result.revoked, []);
      assert.match(result.warning!, /issued by https:\/\/other\.example.*not sent/);
      assert.deepEqual(servers.revoked, []);
      assert.equal(await store.get(servers.mcpUrl), undefined);
    });
  });

  test("signOut() gives up on a revocation endpoint that never answers within timeoutMs", async () => {
    const hung = http.createServer(() => {}); // takes the request, never answers
    const listening = await listenLocal(hung);
    try {
      await withServers(
        { revocationEndpoint: `http://127.0.0.1:${listening.port}/revoke` },
        async (servers) => {
          const store = createMemoryOAuthStore();
          const session = new OAuthSession(servers.mcpUrl, auth(store));
          await session.signIn();
          const started = Date.now();
          const result = await session.signOut({ timeoutMs: 300 });
          assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
          assert.match(
            result.warning!,
            /revoking the refresh token .* failed \(no answer in time\)/,
          );
          assert.equal(await store.get(servers.mcpUrl), undefined);
        },
      );
    } finally {
      await listening.close();
    }
  });

  test("signOut({ revoke: false }) forgets locally without asking the server", async () => {
    await withServers({}, async (servers) => {
      const store = createMemoryOAuthStore();
      const session = new OAuthSession(servers.mcpUrl, auth(store));
      await session.signIn();
      assert.deepEqual(await session.signOut({ revoke: false }), { revoked: [] });
      assert.deepEqual(servers.revoked, []);
      assert.equal(await store.get(servers.mcpUrl), undefined);
    });
  });
});

// A host supplies a token obtained elsewhere (an enterprise IdP, a workload identity): asked for
// before the first request, after a 401 and after a 403 step-up; no sign-in of the session's own.
// Folded from oauth_get_token.test.ts (issue 46).
describe("OAuth: a token from auth.getToken", () => {
  test("a token from auth.getToken is sent; a 401 asks again; no sign-in of its own", async () => {
    const servers = await startOAuthServers({});
    try {
      servers.tokens.add("idp-token-2"); // as if the enterprise IdP's exchange had issued it
      const asked: TokenRequest[] = [];
      const client = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: {
          getToken: (request) => {
            asked.push(request);
            return Promise.resolve(asked.length === 1 ? "stale-token" : "idp-token-2");
          },
        },
      });
      assert.ok((await client.listTools()).length > 0);
      await client.close();
      assert.deepEqual(asked.map((r) => r.reason), ["initial", "unauthorized"]);
      assert.equal(asked[0].server, "docs");
      assert.equal(asked[0].resource, servers.mcpUrl);
      assert.equal(asked[1].scope, "mcp", "the challenge's scope is passed on");
      const own = servers.requests.filter((r) => /register|authorize|^token /.test(r));
      assert.deepEqual(own, [], "no registration, authorization or token request of its own");
    } finally {
      await servers.close();
    }
  });

  test("a 403 insufficient_scope asks getToken for the step-up scope", async () => {
    const servers = await startOAuthServers({ forbid: new Set(["narrow"]) });
    try {
      servers.tokens.add("narrow").add("wide");
      const asked: TokenRequest[] = [];
      const client = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: {
          getToken: (request) => {
            asked.push(request);
            return Promise.resolve(request.reason === "insufficient_scope" ? "wide" : "narrow");
          },
        },
      });
      await client.close();
      assert.deepEqual(asked.map((r) => r.reason), ["initial", "insufficient_scope"]);
      assert.equal(asked[1].scope, "mcp admin");
    } finally {
      await servers.close();
    }
  });

  test("getToken without a token is an OAuthError naming the server and the hook", async () => {
    const servers = await startOAuthServers({});
    try {
      const error = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: { getToken: () => Promise.resolve("") },
      }).then(() => new Error("connected"), (e: Error) => e);
      assert.ok(isOAuthError(error, "sign_in_required"), String(error));
      assert.match(error.message, /^docs: auth\.getToken \(initial\) gave no token/);
    } finally {
      await servers.close();
    }
  });
});

// Setup errors say what is missing, in words a user can act on; `isOAuthError` from the main entry.
// Folded from oauth_setup_errors.test.ts (issue 46).
describe("OAuth: setup errors say what is missing", () => {
  async function signInError(options: OAuthServerOptions, auth: Record<string, unknown>) {
    const servers = await startOAuthServers(options);
    try {
      return await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: { store: createMemoryOAuthStore(), onAuthorize: approve, ...auth },
      }).then(async (client) => {
        await client.close();
        throw new Error("connected");
      }, (error: Error) => error);
    } finally {
      await servers.close();
    }
  }

  test("without auth.redirectUri the sign-in error names auth.redirectUri", async () => {
    const error = await signInError({}, {});
    assert.ok(isOAuthError(error, "sign_in_required"), String(error));
    assert.match(error.message, /auth\.redirectUri is missing/);
    assert.doesNotMatch(error.message, /onAuthorize callback was given/);
  });

  test("without onAuthorize the sign-in error names onAuthorize", async () => {
    const error = await signInError({}, {
      onAuthorize: undefined,
      redirectUri: "http://127.0.0.1:9/cb",
    });
    assert.ok(isOAuthError(error, "sign_in_required"), String(error));
    assert.match(error.message, /no auth\.onAuthorize callback/);
  });

  test("no_client with a client metadata URL configured does not ask for one", async () => {
    const error = await signInError({ noRegistration: true }, {
      redirectUri: "http://127.0.0.1:9/cb",
      clientMetadataUrl: "https://client.example/meta.json",
    });
    assert.ok(isOAuthError(error, "no_client"), String(error));
    assert.match(error.message, /auth\.clientMetadataUrl is set/);
    assert.match(error.message, /auth\.clientId/);
    assert.doesNotMatch(error.message, /or a client metadata URL/);
  });

  test("no_client without a client metadata URL names both ways", async () => {
    const error = await signInError({ noRegistration: true }, {
      redirectUri: "http://127.0.0.1:9/cb",
    });
    assert.ok(isOAuthError(error, "no_client"), String(error));
    assert.match(
      error.message,
      /auth\.clientId\) or a client metadata URL \(auth\.clientMetadataUrl\)/,
    );
  });

  test("an iss refusal says the sign-in was rejected", async () => {
    const error = await signInError({ iss: "wrong" }, { redirectUri: "http://127.0.0.1:9/cb" });
    assert.ok(isOAuthError(error, "iss_mismatch"), String(error));
    assert.match(error.message, /the sign-in was rejected$/);
    assert.doesNotMatch(error.message, /ignored/);
  });

  test("a step-up that gives up names the server by its name, not host:port", async () => {
    // Every token is refused with 403 insufficient_scope, so step-up runs out of rounds.
    const always = { has: () => true } as unknown as Set<string>;
    const error = await signInError({ forbid: always }, {
      redirectUri: "http://127.0.0.1:9/cb",
      maxStepUps: 1,
    });
    assert.ok(isOAuthError(error, "insufficient_scope"), String(error));
    assert.match(error.message, /^docs: the server still refuses the request for want of scope/);
    assert.doesNotMatch(error.message, /127\.0\.0\.1|localhost/);
  });
});
