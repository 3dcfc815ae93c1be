// One authorization-code round trip (lib/mcp/auth/_authorize.ts): every parameter of the
// authorization URL (PKCE S256 of the verifier handed back, scope only when asked), the metadata
// refused before anything is built, RFC 9207's iss checked before state, and a refusal's error code
// cleaned before it is shown. The host's onAuthorize is played by the test, which reads the URL and
// writes the redirect.
// Folded from oauth_authorize_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { authorize } from "../../../lib/mcp/auth/_authorize.ts";
import type { AuthorizationServerMetadata } from "../../../lib/mcp/auth/discovery.ts";
import type { OAuthClientRecord } from "../../../lib/mcp/auth/types.ts";
import { refused } from "../_oauth_refusal.ts";

const ISSUER = "https://as.example.com";
const client: OAuthClientRecord = { clientId: "app-1", kind: "dynamic" };
const params = {
  redirectUri: "http://127.0.0.1:9/callback",
  resource: "https://mcp.example.com/mcp",
  server: "docs",
};
const as = (extra: Partial<AuthorizationServerMetadata> = {}) =>
  ({
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/authorize?tenant=lab`,
    token_endpoint: `${ISSUER}/token`,
    ...extra,
  }) as AuthorizationServerMetadata;

/** An onAuthorize that records the URL and answers with `answer(url)`'s query on the redirect. */
function host(answer: (url: URL) => Record<string, string> | string) {
  const seen: URL[] = [];
  const onAuthorize = (url: URL) => {
    seen.push(url);
    const a = answer(url);
    const query = typeof a === "string" ? a : new URLSearchParams(a).toString();
    return Promise.resolve(new URL(`${params.redirectUri}?${query}`));
  };
  return { seen, onAuthorize };
}

const approve = (extra: Record<string, string> = {}) =>
  host((url) => ({ code: "c-1", state: url.searchParams.get("state")!, ...extra }));

describe("the authorization URL", () => {
  test("every parameter; the verifier handed back is the one the challenge was made of", async () => {
    const { seen, onAuthorize } = approve();
    const result = await authorize(as(), client, { ...params, scope: "read write" }, onAuthorize);
    const url = seen[0];
    assert.equal(`${url.origin}${url.pathname}`, `${ISSUER}/authorize`);
    const q = url.searchParams;
    assert.equal(q.get("tenant"), "lab", "the endpoint's own query is kept");
    assert.equal(q.get("response_type"), "code");
    assert.equal(q.get("client_id"), "app-1");
    assert.equal(q.get("redirect_uri"), params.redirectUri);
    assert.equal(q.get("code_challenge_method"), "S256");
    assert.equal(
      q.get("code_challenge"),
      createHash("sha256").update(result.verifier).digest("base64url"),
    );
    assert.match(q.get("state")!, /^[A-Za-z0-9_-]{20,}$/);
    assert.equal(q.get("scope"), "read write");
    assert.equal(q.get("resource"), params.resource);
    assert.equal(result.callback.get("code"), "c-1");
  });

  test("no scope asked: no scope parameter; each sign-in has its own state and verifier", async () => {
    const first = approve();
    const a = await authorize(as(), client, params, first.onAuthorize);
    const second = approve();
    const b = await authorize(as(), client, params, second.onAuthorize);
    assert.equal(first.seen[0].searchParams.has("scope"), false);
    assert.notEqual(a.verifier, b.verifier);
    assert.notEqual(
      first.seen[0].searchParams.get("state"),
      second.seen[0].searchParams.get("state"),
    );
  });

  test("metadata without a usable authorization_endpoint is refused before onAuthorize", async () => {
    const { seen, onAuthorize } = approve();
    const none = { ...as() } as Record<string, unknown>;
    delete none.authorization_endpoint;
    assert.deepEqual(
      await refused(authorize(none as AuthorizationServerMetadata, client, params, onAuthorize)),
      ["invalid_metadata", "docs: the authorization server has no authorization_endpoint", "docs"],
    );
    assert.deepEqual(
      await refused(
        authorize(as({ authorization_endpoint: "not a url" }), client, params, onAuthorize),
      ),
      ["invalid_metadata", "docs: authorization_endpoint is not a URL", "docs"],
    );
    assert.deepEqual(
      await refused(
        authorize(
          as({ authorization_endpoint: "javascript:alert(1)" }),
          client,
          params,
          onAuthorize,
        ),
      ),
      [
        "insecure_url",
        `docs: refused the authorization_endpoint of ${ISSUER} "javascript:…": OAuth needs an https URL (or http on a loopback host: 127.0.0.0/8, [::1], localhost)`,
        "docs",
      ],
    );
    assert.equal(seen.length, 0);
  });
});

describe("the authorization response", () => {
  test("RFC 9207: iss must be the issuer when present, and present when the server promises it", async () => {
    assert.equal(
      (await authorize(as(), client, params, approve({ iss: ISSUER }).onAuthorize)).callback
        .get("code"),
      "c-1",
    );
    assert.deepEqual(
      await refused(
        authorize(as(), client, params, approve({ iss: "https://evil.example" }).onAuthorize),
      ),
      [
        "iss_mismatch",
        `docs: the authorization response's "iss" is not ${ISSUER} (RFC 9207); the sign-in was rejected`,
        "docs",
      ],
    );
    const promising = as({ authorization_response_iss_parameter_supported: true });
    assert.deepEqual(await refused(authorize(promising, client, params, approve().onAuthorize)), [
      "iss_mismatch",
      `docs: the authorization response lacks "iss", which ${ISSUER} promises (RFC 9207)`,
      "docs",
    ]);
    const ok = await authorize(promising, client, params, approve({ iss: ISSUER }).onAuthorize);
    assert.equal(ok.callback.get("code"), "c-1");
  });

  test("iss is checked before state: a wrong issuer's response is not looked at further", async () => {
    const wrongBoth = host(() => ({ code: "c", state: "forged", iss: "https://evil.example" }));
    assert.equal(
      (await refused(authorize(as(), client, params, wrongBoth.onAuthorize)))[0],
      "iss_mismatch",
    );
  });

  test("a state that is not this sign-in's is refused", async () => {
    assert.deepEqual(
      await refused(
        authorize(as(), client, params, host(() => ({ code: "c", state: "forged" })).onAuthorize),
      ),
      [
        "state_mismatch",
        'docs: the redirect\'s "state" is not the one this sign-in sent; the sign-in was rejected',
        "docs",
      ],
    );
  });

  test("a refusal names its error code, cleaned and cut to 64 characters", async () => {
    const denied = (error: string) =>
      host((url) => ({ error, state: url.searchParams.get("state")! })).onAuthorize;
    assert.deepEqual(await refused(authorize(as(), client, params, denied("access_denied"))), [
      "authorization_denied",
      "docs: the authorization server did not grant access (access_denied)",
      "docs",
    ]);
    const [, hostile] = await refused(
      authorize(as(), client, params, denied(`<b>x</b> ${"y.".repeat(40)}`)),
    );
    const cleaned = `bxb${"y.".repeat(40)}`.slice(0, 64); // tags, slash and space dropped
    assert.equal(hostile, `docs: the authorization server did not grant access (${cleaned})`);
  });

  test("a response the library refuses without an error code says only that", async () => {
    // The state twice: equal to ours for the check here, but a response oauth4webapi refuses.
    const twice = host((url) => {
      const state = url.searchParams.get("state")!;
      return `code=c&state=${state}&state=${state}`;
    });
    assert.deepEqual(await refused(authorize(as(), client, params, twice.onAuthorize)), [
      "authorization_denied",
      "docs: the authorization server did not grant access",
      "docs",
    ]);
  });
});
