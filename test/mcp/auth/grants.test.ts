// The token endpoint grants (lib/mcp/auth/_grants.ts): which client authentication a client gets,
// how client_secret_basic encodes the id and secret, what each failure of the token endpoint
// becomes (code and message, never a secret), the client credentials grant with a secret and with
// private_key_jwt keys of each family, and the token record made of an answer. Against a token
// endpoint on 127.0.0.1 that records what it receives (_token_endpoint.ts).
// Folded from oauth_grants_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import {
  authMethod,
  clientAuth,
  clientCredentials,
  type GrantContext,
  grantError,
  redeemCode,
  refresh,
} from "../../../lib/mcp/auth/_grants.ts";
import { loadOAuth, requestOptions } from "../../../lib/mcp/auth/_oauth.ts";
import { isOAuthError, OAuthError } from "../../../lib/mcp/auth/errors.ts";
import type { AuthorizationServerMetadata } from "../../../lib/mcp/auth/discovery.ts";
import type { OAuthClientRecord } from "../../../lib/mcp/auth/types.ts";
import { jwtPart, type TokenRequest, withTokenEndpoint } from "../_token_endpoint.ts";

const client = (extra: Partial<OAuthClientRecord> = {}): OAuthClientRecord => ({
  clientId: "c",
  kind: "pre-registered",
  ...extra,
});

const as = (extra: Partial<AuthorizationServerMetadata> = {}) =>
  ({
    issuer: "https://as.example.com",
    token_endpoint: "https://as.example.com/token",
    ...extra,
  }) as AuthorizationServerMetadata;

describe("authMethod", () => {
  test("the client's registered method first, none without a secret, else the best listed", () => {
    const withSecret = client({ clientSecret: "s" });
    assert.equal(
      authMethod(as(), client({ tokenEndpointAuthMethod: "client_secret_post" })),
      "client_secret_post",
    );
    assert.equal(authMethod(as(), client()), "none");
    assert.equal(authMethod(as(), withSecret), "client_secret_basic", "RFC 8414's default");
    assert.equal(
      authMethod(
        as({
          token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
        }),
        withSecret,
      ),
      "client_secret_basic",
    );
    assert.equal(
      authMethod(as({ token_endpoint_auth_methods_supported: ["client_secret_post"] }), withSecret),
      "client_secret_post",
    );
    assert.equal(
      authMethod(as({ token_endpoint_auth_methods_supported: ["private_key_jwt"] }), withSecret),
      "none",
    );
  });
});

describe("clientAuth", () => {
  /** What `method` adds to a token request's headers and body. */
  async function applied(method: Parameters<typeof clientAuth>[1], secret: string | undefined) {
    const oauth = await loadOAuth();
    const headers = new Headers();
    const body = new URLSearchParams();
    await clientAuth(oauth, method, secret)(
      as() as never,
      { client_id: "app id:1" },
      body,
      headers,
    );
    return { authorization: headers.get("authorization"), body: body.toString() };
  }

  test("client_secret_basic: form-encoded id and secret, spaces as +, -._~ left as they are", async () => {
    assert.deepEqual(await applied("client_secret_basic", "s3cr et-._~/"), {
      authorization: `Basic ${btoa("app+id%3A1:s3cr+et-._~%2F")}`,
      body: "",
    });
  });

  test("client_secret_post puts the secret in the body; none, or no secret, sends none", async () => {
    const post = await applied("client_secret_post", "s3cret");
    assert.equal(post.authorization, null);
    assert.match(post.body, /(^|&)client_secret=s3cret(&|$)/);
    for (
      const [method, secret] of [["none", "s3cret"], ["client_secret_basic", undefined]] as const
    ) {
      const none = await applied(method, secret);
      assert.equal(none.authorization, null, method);
      assert.equal(none.body.includes("s3cret"), false, method);
      assert.match(none.body, /(^|&)client_id=app\+id%3A1(&|$)/, "a public client names itself");
    }
  });
});

describe("requestOptions", () => {
  test("plain http allowed on loopback hosts only; our fetch; a 30 s signal unless given", async () => {
    const oauth = await loadOAuth();
    const insecure = (endpoint: string | undefined) =>
      requestOptions(oauth, fetch, endpoint)[oauth.allowInsecureRequests];
    assert.equal(insecure("http://127.0.0.1:8080/token"), true);
    assert.equal(insecure("http://localhost/token"), true);
    assert.equal(insecure("http://as.example.com/token"), false);
    assert.equal(insecure("https://as.example.com/token"), false);
    assert.equal(insecure("https://127.0.0.1/token"), false);
    assert.equal(insecure(undefined), false);
    assert.equal(insecure("not a url"), false);
    const own = () => Promise.resolve(new Response());
    const signal = new AbortController().signal;
    const options = requestOptions(oauth, own, "https://as.example.com/token", signal);
    assert.equal(options[oauth.customFetch], own);
    assert.equal(options.signal, signal);
    assert.ok(requestOptions(oauth, own, undefined).signal instanceof AbortSignal);
  });
});

describe("grantError", () => {
  const ctx = { server: "docs" } as GrantContext;
  const body = (error: string, status = 400) =>
    Object.assign(new Error("x"), { name: "ResponseBodyError", error, status });

  test("an error answer of the token endpoint", () => {
    const refused = grantError(body("invalid_grant"), ctx, "refreshing the access token", true);
    assert.ok(refused instanceof OAuthError);
    assert.equal(refused.code, "reauth_required");
    assert.equal(
      refused.message,
      "docs: the authorization server refused the refresh token (invalid_grant); sign in again",
    );
    assert.equal(refused.server, "docs");
    assert.equal(
      (grantError(body("invalid_client"), ctx, "refreshing", true) as OAuthError).code,
      "reauth_required",
    );
    for (const [error, refresh] of [["invalid_scope", true], ["invalid_grant", false]] as const) {
      const failed = grantError(body(error, 401), ctx, "redeeming the code", refresh) as OAuthError;
      assert.equal(failed.code, "token_request_failed");
      assert.equal(
        failed.message,
        `docs: redeeming the code failed: the token endpoint answered HTTP 401 ${error}`,
      );
      assert.equal(failed.server, "docs");
    }
    const noCode = grantError(
      Object.assign(new Error("x"), { name: "ResponseBodyError", status: 500 }),
      ctx,
      "w",
    ) as OAuthError;
    assert.equal(noCode.message, "docs: w failed: network error", "no error code: not an answer");
  });

  test("answers that are not JSON, or not valid", () => {
    for (const code of ["OAUTH_RESPONSE_IS_NOT_JSON", "OAUTH_PARSE_ERROR"]) {
      const e = grantError(Object.assign(new Error("x"), { code }), ctx, "w") as OAuthError;
      assert.equal(e.code, "invalid_token_response");
      assert.equal(e.message, "docs: w failed: the token endpoint did not answer JSON");
      assert.equal(e.server, "docs");
    }
    const invalid = grantError(
      Object.assign(new Error("x"), { code: "OAUTH_INVALID_RESPONSE" }),
      ctx,
      "w",
    ) as OAuthError;
    assert.equal(invalid.code, "invalid_token_response");
    assert.equal(
      invalid.message,
      "docs: w failed: the token endpoint's answer is not valid (OAUTH_INVALID_RESPONSE)",
    );
    assert.equal(invalid.server, "docs");
    const other = grantError(
      Object.assign(new Error("x"), { code: "ECONNRESET_OAUTH_" }),
      ctx,
      "w",
    );
    assert.equal((other as OAuthError).message, "docs: w failed: network error");
  });

  test("isOAuthError: by name, and by code when one is given", () => {
    const error = grantError(new TypeError("x"), ctx, "w");
    assert.equal(isOAuthError(error), true);
    assert.equal(isOAuthError(error, "token_request_failed"), true);
    assert.equal(isOAuthError(error, "no_client"), false);
    assert.equal(isOAuthError(new Error("x")), false);
    assert.equal(isOAuthError(Object.assign(new Error("x"), { name: "PolicyError" })), false);
    assert.equal(isOAuthError({ name: "OAuthError", code: "no_client" }), false, "not an Error");
  });

  test("cancellations, policy and size errors pass as they are; anything else is a network error", () => {
    for (const name of ["AbortError", "TimeoutError", "PolicyError", "ResponseTooLargeError"]) {
      const error = Object.assign(new Error("x"), { name });
      assert.equal(grantError(error, ctx, "w"), error, name);
    }
    const own = new OAuthError("no_client", "mine");
    assert.equal(grantError(own, ctx, "w"), own);
    const cause = new TypeError("fetch failed");
    const network = grantError(cause, ctx, "the client credentials grant") as OAuthError;
    assert.equal(network.code, "token_request_failed");
    assert.equal(network.message, "docs: the client credentials grant failed: network error");
    assert.equal(network.server, "docs");
    assert.equal(network.cause, cause);
    assert.equal(
      (grantError(undefined, ctx, "w") as OAuthError).message,
      "docs: w failed: network error",
    );
  });
});

/** A PKCS#8 PEM private key of `type` (ec, rsa) with `options` (curve, modulus). */
const pem = (type: "ec" | "rsa", options: { namedCurve?: string; modulusLength?: number }) =>
  generateKeyPairSync(type as "ec", {
    ...options,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  } as never).privateKey as unknown as string;

/** The header of the client assertion (a JWT) a request carried. */
const assertionHeader = (request: TokenRequest) =>
  jwtPart(request.form.get("client_assertion")!, 0);

describe("the client credentials grant", () => {
  test("with a secret: Basic authentication, the resource and scope; the granted scope wins", async () => {
    await withTokenEndpoint(
      [{ body: { access_token: "at-1", token_type: "bearer", expires_in: 60, scope: "read" } }],
      async (ctx, requests) => {
        const before = Date.now();
        const tokens = await clientCredentials(
          ctx,
          { clientId: "svc", clientSecret: "sh" },
          "read write",
        );
        assert.equal(requests.length, 1);
        assert.equal(requests[0].authorization, `Basic ${btoa("svc:sh")}`);
        assert.equal(requests[0].form.get("grant_type"), "client_credentials");
        assert.equal(requests[0].form.get("resource"), "http://127.0.0.1:9/mcp");
        assert.equal(requests[0].form.get("scope"), "read write");
        assert.equal(tokens.accessToken, "at-1");
        assert.equal(tokens.scope, "read", "the scope the server granted");
        assert.equal(tokens.tokenType, undefined, "a bearer token");
        assert.equal(tokens.refreshToken, undefined);
        assert.ok(tokens.obtainedAt! >= before && tokens.obtainedAt! <= Date.now());
        assert.equal(tokens.expiresAt, tokens.obtainedAt! + 60_000);
      },
    );
  });

  test("no scope asked: none sent; a DPoP token and a refresh token are kept", async () => {
    await withTokenEndpoint(
      [{ body: { access_token: "at-2", token_type: "DPoP", refresh_token: "rt-2" } }],
      async (ctx, requests) => {
        const tokens = await clientCredentials(ctx, { clientId: "svc", clientSecret: "sh" });
        assert.equal(requests[0].form.has("scope"), false);
        assert.deepEqual(tokens, { accessToken: "at-2", tokenType: "DPoP", refreshToken: "rt-2" });
      },
    );
  });

  test("the scope asked is kept when the server does not say what it granted", async () => {
    await withTokenEndpoint(
      [{ body: { access_token: "at-3", token_type: "bearer" } }],
      async (ctx) => {
        const tokens = await clientCredentials(
          ctx,
          { clientId: "svc", clientSecret: "sh" },
          "read",
        );
        assert.deepEqual(tokens, { accessToken: "at-3", scope: "read" });
      },
    );
  });

  test("private_key_jwt: a PEM key of each family signs the client assertion", async () => {
    const keys: Array<[string, string]> = [
      ["ES256", pem("ec", { namedCurve: "P-256" })],
      ["ES384", pem("ec", { namedCurve: "P-384" })],
      ["ES512", pem("ec", { namedCurve: "P-521" })],
      ["RS256", pem("rsa", { modulusLength: 2048 })],
      ["PS256", pem("rsa", { modulusLength: 2048 })],
    ];
    await withTokenEndpoint(
      [{ body: { access_token: "at-4", token_type: "bearer" } }],
      async (ctx, requests) => {
        for (const [algorithm, privateKey] of keys) {
          await clientCredentials(ctx, { clientId: "svc", privateKey, algorithm });
          const request = requests.at(-1)!;
          assert.equal(request.authorization, undefined, algorithm);
          assert.equal(
            request.form.get("client_assertion_type"),
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          );
          assert.equal(assertionHeader(request).alg, algorithm);
        }
        // No algorithm given: ES256.
        await clientCredentials(ctx, { clientId: "svc", privateKey: keys[0][1] });
        assert.equal(assertionHeader(requests.at(-1)!).alg, "ES256");
        // A CryptoKey is used as it is.
        const { privateKey } = await crypto.subtle.generateKey(
          { name: "ECDSA", namedCurve: "P-256" },
          false,
          ["sign", "verify"],
        );
        await clientCredentials(ctx, { clientId: "svc", privateKey });
        assert.equal(assertionHeader(requests.at(-1)!).alg, "ES256");
      },
    );
  });

  test("neither a secret nor a key: no_client, and nothing is sent", async () => {
    await withTokenEndpoint([{ body: {} }], async (ctx, requests) => {
      const error = await clientCredentials(ctx, { clientId: "svc" }).catch((e) => e);
      assert.equal(error.code, "no_client");
      assert.equal(error.message, "docs: clientCredentials needs clientSecret or privateKey");
      assert.equal(error.server, "docs");
      assert.equal(requests.length, 0);
    });
  });

  test("an error answer becomes token_request_failed without the secret", async () => {
    await withTokenEndpoint(
      [{ status: 401, body: { error: "invalid_client" } }],
      async (ctx) => {
        const error = await clientCredentials(ctx, { clientId: "svc", clientSecret: "sh-secret" })
          .catch((e) => e);
        assert.equal(error.code, "token_request_failed");
        assert.equal(
          error.message,
          "docs: the client credentials grant failed: the token endpoint answered HTTP 401 invalid_client",
        );
      },
    );
  });
});

describe("refresh", () => {
  test("a server that does not rotate refresh tokens: the old one is kept, with its scope", async () => {
    await withTokenEndpoint(
      [{ body: { access_token: "at-new", token_type: "bearer" } }],
      async (ctx, requests) => {
        const tokens = await refresh(ctx, client(), {
          accessToken: "at-old",
          refreshToken: "rt-old",
          scope: "read",
        });
        assert.deepEqual(tokens, { accessToken: "at-new", refreshToken: "rt-old", scope: "read" });
        assert.equal(requests[0].form.get("grant_type"), "refresh_token");
        assert.equal(requests[0].form.get("refresh_token"), "rt-old");
        assert.equal(requests[0].form.get("resource"), "http://127.0.0.1:9/mcp");
      },
    );
  });

  test("a failed refresh or code redemption says which it was", async () => {
    await withTokenEndpoint(
      [{ status: 400, body: { error: "invalid_request" } }],
      async (ctx, requests) => {
        const refreshing = await refresh(ctx, client(), { accessToken: "a", refreshToken: "r" })
          .catch((e) => e);
        assert.equal(
          refreshing.message,
          "docs: refreshing the access token failed: the token endpoint answered HTTP 400 invalid_request",
        );
        // The callback as the authorization step hands it on: checked by oauth4webapi.
        const callback = (await loadOAuth()).validateAuthResponse(
          ctx.as as never,
          { client_id: "c" },
          new URLSearchParams({ code: "c-1", state: "s" }),
          "s",
        );
        const redeeming = await redeemCode(
          ctx,
          client(),
          callback,
          "http://127.0.0.1:9/cb",
          "v".repeat(43),
        ).catch((e) => e);
        assert.equal(
          redeeming.message,
          "docs: redeeming the authorization code failed: the token endpoint answered HTTP 400 invalid_request",
        );
        const form = requests[1].form;
        assert.deepEqual(
          [form.get("grant_type"), form.get("code"), form.get("resource")],
          ["authorization_code", "c-1", "http://127.0.0.1:9/mcp"],
        );
      },
    );
  });

  test("a rotated refresh token replaces the old one; a refused one asks for a new sign-in", async () => {
    await withTokenEndpoint(
      [
        { body: { access_token: "at-2", token_type: "bearer", refresh_token: "rt-2" } },
        { status: 400, body: { error: "invalid_grant" } },
      ],
      async (ctx) => {
        const old = { accessToken: "at-1", refreshToken: "rt-1" };
        assert.equal((await refresh(ctx, client(), old)).refreshToken, "rt-2");
        const error = await refresh(ctx, client(), old).catch((e) => e);
        assert.equal(error.code, "reauth_required");
      },
    );
  });
});
