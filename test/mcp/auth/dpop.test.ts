// DPoP (lib/mcp/auth/_dpop.ts): the algorithm chosen from what the server lists, keys the library
// did not make refused, the one retry with the server's nonce at the token endpoint (and none
// without DPoP or for another error), and resource requests: the method of each kind of call, the
// proof and the token, one nonce retry, other challenges handed back, a HEAD answer without a body.
// Against the scripted endpoint of _token_endpoint.ts, which records each request's DPoP proof.
// Folded from oauth_dpop_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  createDPoP,
  dpopAlgorithm,
  dpopHandle,
  dpopKey,
  dpopRequest,
} from "../../../lib/mcp/auth/_dpop.ts";
import { clientCredentials } from "../../../lib/mcp/auth/_grants.ts";
import { jwtPart, withTokenEndpoint } from "../_token_endpoint.ts";
import { listenLocal } from "../_servers.ts";

const NONCE_AT_TOKEN = {
  status: 400,
  body: { error: "use_dpop_nonce" },
  headers: { "dpop-nonce": "n-1" },
};
const NONCE_AT_RESOURCE = {
  status: 401,
  body: "",
  headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "n-2" },
};
const TOKEN = { body: { access_token: "at", token_type: "DPoP" } };

describe("keys and algorithms", () => {
  test("the first of ES256, ES384, EdDSA, PS256, RS256 the server lists", () => {
    const pick = (list: unknown) => dpopAlgorithm({ dpop_signing_alg_values_supported: list });
    assert.equal(pick(["RS256", "PS256", "EdDSA", "ES384", "ES256"]), "ES256");
    assert.equal(pick(["RS256", "ES384", "PS256"]), "ES384");
    assert.equal(pick(["RS256", "EdDSA", "PS256"]), "EdDSA");
    assert.equal(pick(["RS256", "PS256"]), "PS256");
    assert.equal(pick(["RS256"]), "RS256");
    assert.equal(pick(["HS256", "ES512"]), undefined);
    assert.equal(pick("ES256"), undefined);
    assert.equal(dpopAlgorithm({}), undefined);
  });

  test("a public key names its algorithm and cannot be changed; a foreign one is refused", async () => {
    const handle = await createDPoP("ES256");
    const key = dpopKey(handle, "ES256");
    assert.equal(key.algorithm, "ES256");
    assert.ok(Object.isFrozen(key));
    assert.equal(dpopHandle(key), handle);
    assert.throws(
      () => dpopHandle({ algorithm: "ES256" }),
      (e) => e instanceof TypeError && e.message === "not a DPoP key made by this session",
    );
  });
});

describe("at the token endpoint", () => {
  test("a use_dpop_nonce answer is tried once more, with the server's nonce in the proof", async () => {
    await withTokenEndpoint([NONCE_AT_TOKEN, TOKEN], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      const tokens = await clientCredentials(
        { ...ctx, dpop },
        { clientId: "svc", clientSecret: "s" },
      );
      assert.deepEqual(tokens, { accessToken: "at", tokenType: "DPoP" });
      assert.equal(requests.length, 2);
      assert.equal(jwtPart(requests[0].dpop!, 1).nonce, undefined);
      assert.equal(jwtPart(requests[1].dpop!, 1).nonce, "n-1");
    });
  });

  test("no retry without DPoP, nor for another error", async () => {
    await withTokenEndpoint([NONCE_AT_TOKEN, TOKEN], async (ctx, requests) => {
      const error = await clientCredentials(ctx, { clientId: "svc", clientSecret: "s" })
        .catch((e) => e);
      assert.equal(error.code, "token_request_failed");
      assert.equal(requests.length, 1);
    });
    await withTokenEndpoint(
      [{ status: 400, body: { error: "invalid_client" } }, TOKEN],
      async (ctx, requests) => {
        const dpop = await createDPoP("ES256");
        const error = await clientCredentials({ ...ctx, dpop }, {
          clientId: "svc",
          clientSecret: "s",
        }).catch((e) => e);
        assert.equal(error.code, "token_request_failed");
        assert.equal(requests.length, 1);
      },
    );
  });
});

describe("resource requests", () => {
  test("the token as DPoP, a proof for the method and URL; a nonce challenge answered once", async () => {
    await withTokenEndpoint([NONCE_AT_RESOURCE, { body: { ok: true } }], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      const response = await dpopRequest(dpop, "at-1", fetch, `${ctx.url}/mcp`, {
        method: "POST",
        body: "a=1",
      }, new Headers({ authorization: "Bearer stale", "x-keep": "1" }));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { ok: true });
      assert.equal(requests.length, 2);
      for (const request of requests) {
        assert.equal(request.method, "POST");
        assert.equal(request.authorization, "DPoP at-1");
        assert.equal(request.form.get("a"), "1", "the body goes as given");
        const claims = jwtPart(request.dpop!, 1);
        assert.equal(claims.htm, "POST");
        assert.equal(claims.htu, `${ctx.url}/mcp`);
        assert.equal(typeof claims.ath, "string");
      }
      assert.equal(jwtPart(requests[1].dpop!, 1).nonce, "n-2");
    });
  });

  test("the method: GET by default, a Request's own, init's over it", async () => {
    await withTokenEndpoint([{ body: {} }], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      await dpopRequest(dpop, "t", fetch, new URL(`${ctx.url}/a`), undefined, new Headers());
      await dpopRequest(
        dpop,
        "t",
        fetch,
        new Request(`${ctx.url}/b`, { method: "DELETE" }),
        undefined,
        new Headers(),
      );
      await dpopRequest(
        dpop,
        "t",
        fetch,
        new Request(`${ctx.url}/c`, { method: "DELETE" }),
        { method: "PUT", body: "" },
        new Headers(),
      );
      assert.deepEqual(requests.map((r) => `${r.method} ${r.path}`), [
        "GET /a",
        "DELETE /b",
        "PUT /c",
      ]);
      assert.deepEqual(requests.map((r) => jwtPart(r.dpop!, 1).htm), ["GET", "DELETE", "PUT"]);
    });
  });

  test("a second nonce challenge, or any other challenge, is handed back as it came", async () => {
    await withTokenEndpoint([NONCE_AT_RESOURCE], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      const response = await dpopRequest(dpop, "t", fetch, `${ctx.url}/mcp`, {}, new Headers());
      assert.equal(response.status, 401);
      assert.equal(requests.length, 2);
    });
    await withTokenEndpoint([{
      status: 401,
      body: "",
      headers: { "www-authenticate": 'DPoP error="invalid_token"' },
    }], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      const response = await dpopRequest(dpop, "t", fetch, `${ctx.url}/mcp`, {}, new Headers());
      assert.equal(response.status, 401);
      assert.match(response.headers.get("www-authenticate")!, /invalid_token/);
      assert.equal(requests.length, 1);
    });
  });

  test("a failure that is not a challenge (no server there) is thrown, not handed back", async () => {
    const gone = await listenLocal(http.createServer());
    await gone.close();
    const dpop = await createDPoP("ES256");
    await assert.rejects(
      dpopRequest(dpop, "t", fetch, `http://127.0.0.1:${gone.port}/mcp`, {}, new Headers()),
      TypeError,
    );
  });

  test("a nonce challenge to a HEAD request (an answer without a body) is answered too", async () => {
    await withTokenEndpoint([NONCE_AT_RESOURCE, { body: "" }], async (ctx, requests) => {
      const dpop = await createDPoP("ES256");
      const response = await dpopRequest(dpop, "t", fetch, `${ctx.url}/mcp`, {
        method: "HEAD",
      }, new Headers());
      assert.equal(response.status, 200);
      assert.equal(requests.length, 2);
    });
  });
});
