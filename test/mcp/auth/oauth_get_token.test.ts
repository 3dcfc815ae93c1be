// auth.getToken: a host supplies a token obtained elsewhere (an enterprise IdP, a workload
// identity); the session asks for it before the first request, after a 401 and after a 403
// step-up, against the real protected MCP server of ./_oauth_server.ts, and never registers or
// signs in on its own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect, isOAuthError } from "../../../lib/mod.ts";
import type { TokenRequest } from "../../../lib/mcp/auth/mod.ts";
import { startOAuthServers } from "../_oauth_server.ts";

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
