// OAuth tokens are redacted like API keys: a protected MCP server (./_oauth_server.ts) that
// echoes the caller's bearer token in a JSON-RPC error (message and data) or in an HTTP 400 body
// leaks it into no error and no log line — whether the token was issued during connect(), read
// from the store, or obtained by a refresh after the connection was made.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect, isMcpError } from "../../../lib/mod.ts";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import { REDACTED } from "../../../lib/mcp/policy/redact.ts";
import { assertNoLeak, rejectionOf } from "../_leak.ts";
import { approve, type OAuthServerOptions, startOAuthServers } from "../_oauth_server.ts";

function auth(store: OAuthStore): AuthOptions {
  return { store, redirectUri: "http://127.0.0.1:9/callback", onAuthorize: approve };
}

/** Every token of the store's record. */
async function tokensOf(store: OAuthStore, url: string): Promise<string[]> {
  const tokens = (await store.get(url))?.tokens;
  assert.ok(tokens?.accessToken, "signed in");
  return [tokens.accessToken, tokens.refreshToken ?? ""].filter(Boolean);
}

async function scenario(
  fn: (
    servers: Awaited<ReturnType<typeof startOAuthServers>> & { options: OAuthServerOptions },
    logs: string[],
  ) => Promise<void>,
): Promise<void> {
  const options: OAuthServerOptions = {};
  const servers = await startOAuthServers(options);
  const logs: string[] = [];
  try {
    await fn({ ...servers, options }, logs);
  } finally {
    await servers.close();
  }
}

test("OAuth redaction: a token issued at connect and echoed in a JSON-RPC error", async () => {
  await scenario(async ({ mcpUrl, options }, logs) => {
    const store = createMemoryOAuthStore();
    const client = await connect({ name: "docs", url: mcpUrl }, {
      auth: auth(store),
      log: (line) => logs.push(line),
    });
    try {
      await client.listTools();
      const secrets = await tokensOf(store, mcpUrl);
      options.echoToken = "rpc";
      const error = await rejectionOf(client.listTools());
      assert.ok(isMcpError(error, "RpcError"), String(error));
      assert.ok(error.message.includes(`refused token ${REDACTED}`), error.message);
      assertNoLeak(error, secrets, "RpcError");
      assertNoLeak(logs, secrets, "log");
    } finally {
      await client.close();
    }
  });
});

test("OAuth redaction: a stored token echoed in an HTTP 400 body", async () => {
  await scenario(async ({ mcpUrl, options }, logs) => {
    const store = createMemoryOAuthStore();
    await new OAuthSession(mcpUrl, auth(store)).signIn();
    const secrets = await tokensOf(store, mcpUrl);
    const client = await connect({ name: "docs", url: mcpUrl }, {
      auth: auth(store),
      log: (line) => logs.push(line),
      http: { retries: 0 },
    });
    try {
      options.echoToken = "http";
      const error = await rejectionOf(client.listTools());
      assert.ok(isMcpError(error, "HttpError"), String(error));
      assert.ok(JSON.stringify(error).includes(REDACTED), JSON.stringify(error));
      assertNoLeak(error, secrets, "HttpError");
      assertNoLeak(logs, secrets, "log");
    } finally {
      await client.close();
    }
  });
});

test("OAuth redaction: a token refreshed after connect is redacted too", async () => {
  await scenario(async (servers, logs) => {
    const store = createMemoryOAuthStore();
    const client = await connect({ name: "docs", url: servers.mcpUrl }, {
      auth: auth(store),
      log: (line) => logs.push(line),
      http: { retries: 0 },
    });
    try {
      const before = await tokensOf(store, servers.mcpUrl);
      servers.tokens.clear(); // the next request gets a 401: the session refreshes
      servers.options.echoToken = "rpc";
      const error = await rejectionOf(client.listTools());
      const after = await tokensOf(store, servers.mcpUrl);
      assert.notEqual(after[0], before[0], "a new access token");
      assert.ok(servers.requests.includes("token refresh_token"));
      assertNoLeak(error, [...before, ...after], "RpcError after refresh");
      assertNoLeak(logs, [...before, ...after], "log");
    } finally {
      await client.close();
    }
  });
});
