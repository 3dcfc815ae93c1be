// RFC 8414 §3.3: the `issuer` in authorization-server metadata must be identical (a string
// comparison) to the issuer the metadata URL was built from. A real HTTP server on 127.0.0.1
// serves the metadata with an issuer that differs only in case, a leading-zero port or a
// trailing `/`: each is refused as `issuer_mismatch`; the exact string is accepted.
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import { discoverAuthorizationServer, isOAuthError } from "../../../lib/mcp/auth/mod.ts";
import { listenLocal } from "../_servers.ts";

async function metadataServer() {
  const state = { issuer: "" };
  const server = http.createServer((req, res) => {
    if (req.url !== "/.well-known/oauth-authorization-server") {
      res.writeHead(404).end();
      return;
    }
    const base = state.issuer;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
      issuer: base,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      code_challenge_methods_supported: ["S256"],
    }));
  });
  const listening = await listenLocal(server);
  const origin = `http://127.0.0.1:${listening.port}`;
  return { state, origin, port: listening.port, close: () => listening.close() };
}

test("the metadata issuer must equal the expected issuer as a string", async () => {
  const server = await metadataServer();
  try {
    const variants = [
      `HTTP://127.0.0.1:${server.port}`,
      `http://127.0.0.1:0${server.port}`,
      `${server.origin}/`,
    ];
    for (const issuer of variants) {
      server.state.issuer = issuer;
      const error = await discoverAuthorizationServer(server.origin, { server: "as" })
        .then(() => undefined, (e: unknown) => e);
      assert.ok(isOAuthError(error, "issuer_mismatch"), `${issuer} must be refused`);
      assert.match(error.message, /expected exactly/);
    }
    server.state.issuer = server.origin;
    const metadata = await discoverAuthorizationServer(server.origin, { server: "as" });
    assert.equal(metadata?.issuer, server.origin);
  } finally {
    await server.close();
  }
});
