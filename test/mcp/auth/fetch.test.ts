// The authenticating fetch (lib/mcp/auth/fetch.ts): no Authorization without a token, at most two
// retries after a 401, a 403 that is not insufficient_scope handed back, the step-up limit and its
// error, the budget starting again after a success, answers without a body (HEAD). Through a real
// OAuthSession whose tokens come from auth.getToken, against the scripted endpoint of
// _token_endpoint.ts.
// Folded from oauth_fetch_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createAuthFetch,
  createMemoryOAuthStore,
  OAuthSession,
} from "../../../lib/mcp/auth/mod.ts";
import type { TokenRequest as GetTokenRequest } from "../../../lib/mcp/auth/mod.ts";
import { type ScriptedAnswer, withTokenEndpoint } from "../_token_endpoint.ts";

const OK: ScriptedAnswer = { body: { ok: true } };
const UNAUTHORIZED: ScriptedAnswer = {
  status: 401,
  body: "",
  headers: { "www-authenticate": 'Bearer error="invalid_token"' },
};
const scopeDenied = (scope?: string): ScriptedAnswer => ({
  status: 403,
  body: "",
  headers: {
    "www-authenticate": `Bearer error="insufficient_scope"${scope ? `, scope="${scope}"` : ""}`,
  },
});

/** A session whose getToken hands out t1, t2, … and records why it was asked. */
function tokenSession(url: string) {
  const reasons: string[] = [];
  const session = new OAuthSession(url, {
    getToken: (request: GetTokenRequest) => {
      reasons.push(request.reason);
      return Promise.resolve(`t${reasons.length}`);
    },
  }, { server: "docs" });
  return { session, reasons };
}

describe("createAuthFetch", () => {
  test("no token: no Authorization header, and no init needed", async () => {
    await withTokenEndpoint([OK], async (ctx, requests) => {
      const session = new OAuthSession(`${ctx.url}/mcp`, { store: createMemoryOAuthStore() });
      const response = await createAuthFetch(session)(`${ctx.url}/mcp`);
      assert.equal(response.status, 200);
      assert.equal(requests[0].authorization, undefined);
    });
  });

  test("a 401 is retried twice with a fresh token, then handed back (HEAD: no body)", async () => {
    await withTokenEndpoint([UNAUTHORIZED], async (ctx, requests) => {
      const { session, reasons } = tokenSession(`${ctx.url}/mcp`);
      const response = await createAuthFetch(session)(`${ctx.url}/mcp`, { method: "HEAD" });
      assert.equal(response.status, 401);
      assert.deepEqual(requests.map((r) => r.authorization), [
        "Bearer t1",
        "Bearer t2",
        "Bearer t3",
      ]);
      assert.deepEqual(reasons, ["initial", "unauthorized", "unauthorized"]);
    });
  });

  test("a 403 that is not insufficient_scope is the caller's", async () => {
    for (
      const answer of [{ status: 403, body: "no" }, {
        status: 403,
        body: "no",
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      }]
    ) {
      await withTokenEndpoint([answer, OK], async (ctx, requests) => {
        const { session } = tokenSession(`${ctx.url}/mcp`);
        const response = await createAuthFetch(session)(`${ctx.url}/mcp`, {});
        assert.equal(response.status, 403);
        assert.equal(requests.length, 1);
      });
    }
  });

  test("insufficient_scope: two step-ups, then an error naming the scope", async () => {
    for (const scope of ["files:write", undefined]) {
      await withTokenEndpoint([scopeDenied(scope)], async (ctx, requests) => {
        const { session, reasons } = tokenSession(`${ctx.url}/mcp`);
        const error = await createAuthFetch(session)(`${ctx.url}/mcp`, { method: "HEAD" })
          .catch((e) => e);
        assert.equal(error.code, "insufficient_scope");
        assert.equal(error.server, "docs");
        assert.equal(
          error.message,
          `docs: the server still refuses the request for want of scope "${
            scope ?? ""
          }" after the step-up limit`,
        );
        assert.equal(requests.length, 3);
        assert.deepEqual(reasons, ["initial", "insufficient_scope", "insufficient_scope"]);
      });
    }
  });

  test("only a 403 asks for a step-up; an answer that is not ok does not refill the budget", async () => {
    const okButChallenged: ScriptedAnswer = {
      body: { ok: true },
      headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="x"' },
    };
    await withTokenEndpoint([okButChallenged, OK], async (ctx, requests) => {
      const { session } = tokenSession(`${ctx.url}/mcp`);
      assert.equal((await createAuthFetch(session)(`${ctx.url}/mcp`, {})).status, 200);
      assert.equal(requests.length, 1);
    });
    await withTokenEndpoint(
      [scopeDenied("a"), { status: 500, body: "down" }, scopeDenied("b"), scopeDenied("b"), OK],
      async (ctx) => {
        const { session } = tokenSession(`${ctx.url}/mcp`);
        const authFetch = createAuthFetch(session);
        assert.equal((await authFetch(`${ctx.url}/mcp`, {})).status, 500);
        const error = await authFetch(`${ctx.url}/mcp`, {}).catch((e) => e);
        assert.equal(error.code, "insufficient_scope", "one step-up was left, and it was spent");
      },
    );
  });

  test("a success starts the step-up budget again", async () => {
    await withTokenEndpoint(
      [scopeDenied("a"), OK, scopeDenied("b"), scopeDenied("b"), OK],
      async (ctx, requests) => {
        const { session } = tokenSession(`${ctx.url}/mcp`);
        const authFetch = createAuthFetch(session);
        assert.equal((await authFetch(`${ctx.url}/mcp`, {})).status, 200);
        assert.equal((await authFetch(`${ctx.url}/mcp`, {})).status, 200, "two step-ups again");
        assert.equal(requests.length, 5);
      },
    );
  });
});
