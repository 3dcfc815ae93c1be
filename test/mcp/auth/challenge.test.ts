// parseBearerChallenge (RFC 6750 §3, RFC 9728 §5.1): scheme and parameter names in any case, quoted
// values with escapes and bare token values, spaces around `=`, the Bearer (or DPoP) challenge
// among others read alone, an empty value left out, and no challenge at all without a Bearer or
// DPoP one. Through the public "../oauth" entry.
// Folded from oauth_challenge_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseBearerChallenge } from "../../../lib/mcp/auth/mod.ts";

const RM = "https://api.example.org/.well-known/oauth-protected-resource/mcp";

test("the three parameters, quoted or bare, names and scheme in any case", () => {
  assert.deepEqual(
    parseBearerChallenge(
      `Bearer resource_metadata="${RM}", scope="files:read files:write", error=insufficient_scope`,
    ),
    { resourceMetadata: RM, scope: "files:read files:write", error: "insufficient_scope" },
  );
  assert.deepEqual(parseBearerChallenge(`BEARER Resource_Metadata = "${RM}" ,SCOPE= mcp`), {
    resourceMetadata: RM,
    scope: "mcp",
  });
  assert.deepEqual(parseBearerChallenge('Bearer scope="a \\"b\\" \\\\c"'), { scope: 'a "b" \\c' });
  assert.deepEqual(parseBearerChallenge('Bearer realm="x", error="invalid_token"'), {
    error: "invalid_token",
  });
  assert.deepEqual(parseBearerChallenge("Bearer"), {});
  assert.deepEqual(parseBearerChallenge('Bearer scope=""'), {}, "an empty value is left out");
});

test("among several challenges the Bearer or DPoP one is read, and only it", () => {
  assert.deepEqual(parseBearerChallenge('Basic realm="r", scope="basic", Bearer scope="mcp"'), {
    scope: "mcp",
  });
  assert.deepEqual(parseBearerChallenge('Bearer scope="mcp", Basic realm="r", scope="basic"'), {
    scope: "mcp",
  });
  assert.deepEqual(
    parseBearerChallenge('DPoP algs="ES256", error="use_dpop_nonce", scope="mcp"'),
    { error: "use_dpop_nonce", scope: "mcp" },
  );
  assert.deepEqual(parseBearerChallenge('dpop scope="x"'), { scope: "x" });
  assert.deepEqual(
    parseBearerChallenge('Bearer scope="first", Basic realm="r", DPoP error="use_dpop_nonce"'),
    { scope: "first" },
    "the first Bearer or DPoP challenge is the one read",
  );
  for (const none of [null, undefined, "", 'Basic realm="r", scope="s"', "Negotiate abc"]) {
    assert.equal(parseBearerChallenge(none), undefined, String(none));
  }
});
