// Token revocation at sign-out (lib/mcp/auth/_revoke.ts): the refresh token first, then the
// access token, each with its hint and the client's authentication; the first failure ends it with
// a warning that says which token, where and why in words (each kind of failure its own), never a
// token. Against the scripted endpoint of _token_endpoint.ts, the fetch guard, and fetches that
// fail the way networks do.
// Folded from oauth_revoke_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { revokeTokens } from "../../../lib/mcp/auth/_revoke.ts";
import { guardFetch } from "../../../lib/mcp/auth/_guarded_fetch.ts";
import type { AuthorizationServerMetadata } from "../../../lib/mcp/auth/discovery.ts";
import type { OAuthClientRecord } from "../../../lib/mcp/auth/types.ts";
import { PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import { OAuthError } from "../../../lib/mcp/auth/errors.ts";
import { type ScriptedAnswer, withTokenEndpoint } from "../_token_endpoint.ts";

const publicClient: OAuthClientRecord = { clientId: "app", kind: "dynamic" };
const TOKENS = { accessToken: "at-secret", refreshToken: "rt-secret" };
const later = () => AbortSignal.timeout(5_000);

/** Revoke TOKENS at the scripted endpoint answering `answers`; the result and the requests. */
async function revokeAt(
  answers: ScriptedAnswer[],
  options: { client?: OAuthClientRecord; tokens?: typeof TOKENS; guard?: boolean } = {},
) {
  let out!: { result: Awaited<ReturnType<typeof revokeTokens>>; endpoint: string };
  let seen!: Parameters<Parameters<typeof withTokenEndpoint>[1]>[1];
  await withTokenEndpoint(answers, async (ctx, requests) => {
    const endpoint = `${ctx.url}/revoke`;
    const as = { ...ctx.as, revocation_endpoint: endpoint } as AuthorizationServerMetadata;
    const fetchFn = options.guard ? guardFetch(fetch, { maxBytes: 64 }) : fetch;
    const result = await revokeTokens(
      as,
      options.client ?? publicClient,
      options.tokens ?? TOKENS,
      fetchFn,
      later(),
    );
    out = { result, endpoint };
    seen = requests;
  });
  assert.equal(JSON.stringify(out.result).includes("secret"), false, "no token in the result");
  return { ...out, requests: seen };
}

describe("revocation", () => {
  test("the refresh token first, then the access token, each with its hint", async () => {
    const { result, requests } = await revokeAt([{ body: "" }]);
    assert.deepEqual(result, { revoked: ["refresh_token", "access_token"] });
    assert.deepEqual(
      requests.map((r) => [r.path, r.form.get("token"), r.form.get("token_type_hint")]),
      [["/revoke", "rt-secret", "refresh_token"], ["/revoke", "at-secret", "access_token"]],
    );
    assert.equal(requests[0].form.get("client_id"), "app");
    assert.equal(requests[0].authorization, undefined, "a public client");
  });

  test("a confidential client authenticates; no refresh token: only the access token", async () => {
    const { result, requests } = await revokeAt([{ body: "" }], {
      client: { clientId: "app", clientSecret: "cs", kind: "pre-registered" },
      tokens: { accessToken: "at-secret" } as typeof TOKENS,
    });
    assert.deepEqual(result, { revoked: ["access_token"] });
    assert.equal(requests.length, 1);
    assert.equal(requests[0].authorization, `Basic ${btoa("app:cs")}`);
  });

  test("the first failure ends it, naming the token and the endpoint", async () => {
    const refused = await revokeAt([{ status: 400, body: { error: "unsupported_token_type" } }]);
    assert.deepEqual(refused.result, {
      revoked: [],
      warning:
        `revoking the refresh token at ${refused.endpoint} failed (HTTP 400 unsupported_token_type)`,
    });
    assert.equal(refused.requests.length, 1);
    const second = await revokeAt([{ body: "" }, { status: 503, body: "down" }]);
    assert.deepEqual(second.result, {
      revoked: ["refresh_token"],
      warning: `revoking the access token at ${second.endpoint} failed (HTTP 503)`,
    });
  });
});

describe("why a revocation failed, in words", () => {
  const as = (endpoint: string) =>
    ({
      issuer: "https://as.example.com",
      token_endpoint: "https://as.example.com/token",
      revocation_endpoint: endpoint,
    }) as AuthorizationServerMetadata;
  const why = async (
    fetchFn: typeof fetch,
    signal = later(),
    endpoint = "https://as.example.com/r",
  ) =>
    /failed \((.*)\)$/.exec(
      (await revokeTokens(as(endpoint), publicClient, TOKENS, fetchFn, signal)).warning ?? "",
    )?.[1];

  test("timeouts and cancellations: no answer in time", async () => {
    assert.equal(
      await why(fetch, AbortSignal.abort(new DOMException("late", "TimeoutError"))),
      "no answer in time",
    );
    assert.equal(await why(fetch, AbortSignal.abort()), "no answer in time");
  });

  test("an answer over the cap; a URL the policy refuses", async () => {
    const big = await revokeAt([{ body: "x".repeat(100) }], { guard: true });
    assert.match(big.result.warning!, /failed \(its answer exceeds the size cap\)$/);
    const policy = guardFetch(fetch, { check: () => Promise.reject(new PolicyError("private")) });
    assert.equal(await why(policy), "the URL was refused");
  });

  test("the library's own refusal by its code; anything else is a network error", async () => {
    assert.equal(await why(fetch, later(), "http://example.com/r"), "OAUTH_HTTP_REQUEST_FORBIDDEN");
    assert.equal(
      await why(() => Promise.reject(new TypeError("fetch failed: at-secret"))),
      "network error",
    );
    assert.equal(
      await why(() => Promise.reject(Object.assign(new Error("x"), { code: "ECONNRESET" }))),
      "network error",
    );
    assert.equal(await why(() => Promise.reject(undefined)), "network error", "no error at all");
    assert.equal(
      await why(() => Promise.reject(Object.assign(new Error("x"), { cause: { status: 502 } }))),
      "HTTP 502",
      "a status on the cause",
    );
    assert.equal(
      await why(() => Promise.reject(new OAuthError("insecure_url", "refused"))),
      "the URL was refused",
    );
  });
});
