// OAuth setup errors say what is missing, in words a user can act on, against the real
// authorization server of ./_oauth_server.ts: no redirectUri, no client a server without
// registration can accept although a client metadata URL is configured, and an `iss` refusal
// (the sign-in is rejected, not "ignored"). `isOAuthError` is exported from the main entry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect, isOAuthError } from "../../../lib/mod.ts";
import { createMemoryOAuthStore } from "../../../lib/mcp/auth/mod.ts";
import { approve, type OAuthServerOptions, startOAuthServers } from "../_oauth_server.ts";

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
