// OAuth sign-in through connect({ auth }) against a real authorization server and a protected
// MCP server (./_oauth_server.ts) on 127.0.0.1: discovery, registration, PKCE, tokens, refresh
// (before expiry, on a 401, single-flight), the store, and bad input as typed errors.
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
  PolicyError,
} from "../../../lib/mod.ts";
import { createSecretBox } from "../../../lib/mcp/mod.ts";
import {
  type AuthOptions,
  authorizationServerMetadataUrls,
  createMemoryOAuthStore,
  createOAuthStore,
  isOAuthError,
  OAuthSession,
  type OAuthStore,
  parseBearerChallenge,
} from "../../../lib/mcp/auth/mod.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import {
  approve,
  type OAuthServerOptions,
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
