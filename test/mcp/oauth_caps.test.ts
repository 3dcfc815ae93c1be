// OAuth answers are capped like MCP answers (issue 18): a rogue authorization server on
// 127.0.0.1 (./_oauth_rogue.ts) streams a 40 MB metadata, registration or token answer without a
// Content-Length; the client refuses it once past the 1 MiB cap, hangs up (the server stops
// early), and its memory stays bounded. Each test prints what it measured.
import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { createMemoryOAuthStore, OAuthSession } from "../../lib/mcp/auth/mod.ts";
import { approve, startOAuthServers } from "./_oauth_server.ts";
import { startRogueAuthorizationServer } from "./_oauth_rogue.ts";

function auth() {
  return {
    store: createMemoryOAuthStore(),
    redirectUri: "http://127.0.0.1:9/callback",
    onAuthorize: approve,
  };
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
      const base = process.memoryUsage();
      let peak = 0;
      const sample = setInterval(() => {
        const now = process.memoryUsage();
        peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
      }, 5);
      try {
        const started = Date.now();
        const error = await new OAuthSession(servers.mcpUrl, auth(), { server: "docs" })
          .signIn().then(() => undefined, (e) => e);
        const ms = Date.now() - started;
        assert.equal(error?.name, "ResponseTooLargeError", String(error));
        assert.match(error.message, /^docs: the answer of http:\/\/127\.0\.0\.1:\d+\//);
        assert.match(error.message, /exceeds the 1048576-byte cap of OAuth answers/);
        assert.ok(error.message.includes(path), error.message);
        // The client hangs up past the cap: the server wrote a small part of the 40 MB.
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.ok(rogue.sent.bytes < 8 * 1024 * 1024, `the server sent ${rogue.sent.bytes} bytes`);
        assert.ok(peak < 24 * 1024 * 1024, `memory grew by ${peak} bytes`);
        console.log(
          `# ${what}: refused after ${ms} ms; server sent ${
            (rogue.sent.bytes / 2 ** 20).toFixed(1)
          } MB; ` +
            `peak growth ${(peak / 2 ** 20).toFixed(1)} MB`,
        );
      } finally {
        clearInterval(sample);
        await servers.close();
        await rogue.close();
      }
    });
  }
});
