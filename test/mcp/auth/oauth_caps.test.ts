// OAuth answers are capped like MCP answers (issues 18 and 41): a rogue authorization server on
// 127.0.0.1 (./_oauth_rogue.ts) streams a 40 MB answer without a Content-Length — for the
// protected-resource metadata (through a redirect), the authorization-server metadata, the
// registration, the token (code, refresh and client credentials grants) and the revocation. The
// client reads it chunk by chunk through the transport's reader (`readBody`), refuses it once
// past the 1 MiB cap and hangs up: the server sees its write cut after a small part, and the
// process's memory does not grow by anything like the answer's size. Each test prints what it
// measured.
import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import { approve, startOAuthServers } from "../_oauth_server.ts";
import { type RogueServer, startRogueAuthorizationServer } from "../_oauth_rogue.ts";

const MiB = 2 ** 20;

function auth(store: OAuthStore = createMemoryOAuthStore()): AuthOptions {
  return { store, redirectUri: "http://127.0.0.1:9/callback", onAuthorize: approve };
}

/**
 * Run `fn`, sampling the heap and array buffers every 5 ms: the peak growth over the start, and
 * what `fn` resolved or rejected with.
 */
async function measured<T>(fn: () => Promise<T>): Promise<{ outcome: unknown; peak: number }> {
  const base = process.memoryUsage();
  let peak = 0;
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
  }, 5);
  try {
    const outcome = await fn().then((v) => v, (e) => e);
    return { outcome, peak };
  } finally {
    clearInterval(sample);
  }
}

/** The huge answer was cut short by the client, and memory stayed far below its 40 MB. */
async function assertCut(rogue: RogueServer, peak: number, what: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(rogue.sent.cut, `${what}: the client hung up before the end of the 40 MB`);
  assert.ok(rogue.sent.bytes < 8 * MiB, `${what}: the server sent ${rogue.sent.bytes} bytes`);
  assert.ok(peak < 24 * MiB, `${what}: memory grew by ${peak} bytes`);
  console.log(
    `# ${what}: server sent ${(rogue.sent.bytes / MiB).toFixed(1)} MB of 40; ` +
      `peak growth ${(peak / MiB).toFixed(1)} MB`,
  );
}

function assertTooLarge(error: unknown, path: string): void {
  const e = error as Error;
  assert.equal(e?.name, "ResponseTooLargeError", String(error));
  assert.match(e.message, /^docs: the answer of http:\/\/127\.0\.0\.1:\d+\//);
  assert.match(e.message, /exceeds the 1048576-byte cap of OAuth answers/);
  assert.ok(e.message.includes(path), e.message);
}

describe("OAuth: answers are capped like MCP answers", () => {
  const paths = {
    "authorization-server metadata": "/.well-known/oauth-authorization-server",
    "registration": "/register",
    "token": "/token",
  };
  for (const [what, path] of Object.entries(paths)) {
    test(`a 40 MB ${what} answer is refused early with memory bounded`, async () => {
      const rogue = await startRogueAuthorizationServer({ huge: path });
      const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
      try {
        const { outcome, peak } = await measured(() =>
          new OAuthSession(servers.mcpUrl, auth(), { server: "docs" }).signIn()
        );
        assertTooLarge(outcome, path);
        await assertCut(rogue, peak, what);
      } finally {
        await servers.close();
        await rogue.close();
      }
    });
  }

  test("a 40 MB protected-resource metadata (behind a redirect) is refused early", async () => {
    const rogue = await startRogueAuthorizationServer({ huge: "/prm" });
    const servers = await startOAuthServers({ metadataRedirect: `${rogue.issuer}/prm` });
    try {
      const { outcome, peak } = await measured(() =>
        new OAuthSession(servers.mcpUrl, auth(), { server: "docs" }).signIn()
      );
      assertTooLarge(outcome, "/prm");
      await assertCut(rogue, peak, "protected-resource metadata");
    } finally {
      await servers.close();
      await rogue.close();
    }
  });

  test("a 40 MB answer to a refresh is refused early; the tokens stay as they were", async () => {
    const options: { huge?: string } = {};
    const rogue = await startRogueAuthorizationServer(options);
    const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
    const store = createMemoryOAuthStore();
    try {
      const session = new OAuthSession(servers.mcpUrl, auth(store), { server: "docs" });
      await session.signIn();
      const before = (await store.get(servers.mcpUrl))!;
      assert.ok(before.tokens?.refreshToken, "the rogue issued a refresh token");
      options.huge = "/token";
      const { outcome, peak } = await measured(() =>
        session.unauthorized(undefined, before.tokens!.accessToken)
      );
      assertTooLarge(outcome, "/token");
      const grants = rogue.seen.filter((r) => r.path === "/token").map((r) =>
        new URLSearchParams(r.body).get("grant_type")
      );
      assert.deepEqual(grants, ["authorization_code", "refresh_token"]);
      assert.deepEqual(await store.get(servers.mcpUrl), before, "nothing of the answer stored");
      await assertCut(rogue, peak, "refresh");
    } finally {
      await servers.close();
      await rogue.close();
    }
  });

  test("a 40 MB answer to the client credentials grant is refused early", async () => {
    const rogue = await startRogueAuthorizationServer({ huge: "/token" });
    const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
    try {
      const session = new OAuthSession(servers.mcpUrl, {
        store: createMemoryOAuthStore(),
        clientCredentials: { clientId: "bot", clientSecret: "bot-secret" },
      }, { server: "docs" });
      const { outcome, peak } = await measured(() => session.signIn());
      assertTooLarge(outcome, "/token");
      const [request] = rogue.seen.filter((r) => r.path === "/token");
      assert.equal(new URLSearchParams(request.body).get("grant_type"), "client_credentials");
      await assertCut(rogue, peak, "client credentials");
    } finally {
      await servers.close();
      await rogue.close();
    }
  });

  test("a 40 MB revocation answer is cut early; sign-out still forgets the tokens", async () => {
    const options: { huge?: string; metadata?: Record<string, unknown> } = {};
    const rogue = await startRogueAuthorizationServer(options);
    options.metadata = { revocation_endpoint: `${rogue.issuer}/revoke` };
    const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
    const store = createMemoryOAuthStore();
    try {
      await new OAuthSession(servers.mcpUrl, auth(store), { server: "docs" }).signIn();
      options.huge = "/revoke";
      const { outcome, peak } = await measured(() =>
        new OAuthSession(servers.mcpUrl, { store }, { server: "docs" }).signOut()
      );
      assert.deepEqual(outcome, {
        revoked: [],
        warning: `revoking the refresh token at ${rogue.issuer}/revoke failed ` +
          "(its answer exceeds the size cap)",
      });
      assert.equal(await store.get(servers.mcpUrl), undefined, "forgotten all the same");
      await assertCut(rogue, peak, "revocation");
    } finally {
      await servers.close();
      await rogue.close();
    }
  });
});
