// What an authorization server's metadata may point the client at (issue 18), against rogue
// servers on 127.0.0.1 (./_oauth_rogue.ts) and nothing beyond loopback:
// - every endpoint a sign-in uses must be https (http only on loopback) before anything is built
//   on it, and a javascript:, data: or plain-http authorization endpoint never reaches
//   onAuthorize; any other endpoint that is not (a plain-http revocation endpoint) does not
//   break the sign-in: nothing is sent there, and sign-out says it skipped the revocation;
// - metadata redirects are checked hop by hop with the URL rule and the caller's URL policy.
// The answer size caps are in ./oauth_caps.test.ts.
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import { connect } from "../../../lib/mod.ts";
import { PolicyError } from "../../../lib/mcp/mod.ts";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  isAllowedOAuthUrl,
  isOAuthError,
  OAuthSession,
} from "../../../lib/mcp/auth/mod.ts";
import { approve, startOAuthServers } from "../_oauth_server.ts";
import { startRogueAuthorizationServer } from "../_oauth_rogue.ts";
import { listenLocal } from "../_servers.ts";

/** An auth option that records every URL handed to onAuthorize. */
function recording(opened: URL[]): AuthOptions {
  return {
    store: createMemoryOAuthStore(),
    redirectUri: "http://127.0.0.1:9/callback",
    onAuthorize: (url) => {
      opened.push(url);
      return approve(url);
    },
  };
}

/** Connect to an MCP server whose metadata names a rogue AS; the error, or undefined. */
async function connectVia(
  rogueOptions: NonNullable<Parameters<typeof startRogueAuthorizationServer>[0]>,
  auth: AuthOptions,
) {
  const rogue = await startRogueAuthorizationServer(rogueOptions);
  const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
  rogueOptions.accept = servers.tokens; // the MCP server accepts what the rogue AS issues
  try {
    const client = await connect({ name: "docs", url: servers.mcpUrl }, { auth });
    await client.close();
    return { error: undefined, rogue };
  } catch (error) {
    return { error: error as Error, rogue };
  } finally {
    await servers.close();
    await rogue.close();
  }
}

describe("OAuth: endpoints must be https, or http on loopback", () => {
  const bad = {
    "javascript:": "javascript:fetch('http://127.0.0.1:9/canary')//",
    "data:": "data:text/html,<script>alert(1)</script>",
    "plain http to another host": "http://login.example.com/authorize",
  };
  for (const [what, value] of Object.entries(bad)) {
    test(`a ${what} authorization_endpoint is refused and never reaches onAuthorize`, async () => {
      const opened: URL[] = [];
      const { error, rogue } = await connectVia(
        { metadata: { authorization_endpoint: value } },
        recording(opened),
      );
      assert.ok(isOAuthError(error, "insecure_url"), String(error));
      assert.equal(opened.length, 0, "onAuthorize was called");
      assert.match(error!.message, /^docs: /, "names the server");
      assert.match(error!.message, /authorization_endpoint/, "names the field");
      assert.match(
        error!.message,
        /https URL \(or http on a loopback host/,
        "says what is expected",
      );
      assert.ok(!error!.message.includes("alert(1)") && !error!.message.includes("fetch("));
      assert.ok(!rogue.seen.some((r) => r.method === "POST"), "nothing registered or redeemed");
    });
  }

  for (const field of ["token_endpoint", "registration_endpoint"]) {
    test(`a plain-http ${field} on another host is refused before any request`, async () => {
      const opened: URL[] = [];
      const { error, rogue } = await connectVia(
        { metadata: { [field]: `http://login.example.com/${field}` } },
        recording(opened),
      );
      assert.ok(isOAuthError(error, "insecure_url"), String(error));
      assert.match(error!.message, new RegExp(field));
      assert.equal(opened.length, 0);
      assert.ok(!rogue.seen.some((r) => r.method === "POST"));
    });
  }

  test("a plain-http revocation endpoint does not break sign-in; sign-out skips it and says so", async () => {
    const revoke = "http://login.example.com/revoke";
    const metadata: Record<string, unknown> = {
      revocation_endpoint: revoke,
      introspection_endpoint: "http://login.example.com/introspect",
      jwks_uri: "javascript:alert(1)",
    };
    const rogue = await startRogueAuthorizationServer({ metadata });
    const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(new URL(input instanceof Request ? input.url : input).href);
      return fetch(input, init);
    };
    const store = createMemoryOAuthStore();
    try {
      await new OAuthSession(servers.mcpUrl, { ...recording([]), store }, { fetch: spy })
        .signIn();
      const tokens = (await store.get(servers.mcpUrl))!.tokens!;
      assert.ok(tokens.accessToken.startsWith("rogue-at-"), "signed in at the rogue issuer");
      const result = await new OAuthSession(servers.mcpUrl, { store }, {
        server: "docs",
        fetch: spy,
      }).signOut();
      assert.deepEqual(result, {
        revoked: [],
        warning: "revocation skipped: the authorization server's revocation_endpoint " +
          '"http://login.example.com/revoke" is not https (OAuth needs https, or http on a ' +
          "loopback host), so the tokens were not sent there; they are forgotten here, but stay " +
          "valid at the server until they expire",
      });
      assert.equal(await store.get(servers.mcpUrl), undefined, "forgotten locally");
      assert.ok(!seen.some((url) => url.includes("login.example.com")), seen.join("\n"));
      assert.ok(!rogue.seen.some((r) => r.path === "/revoke"));
    } finally {
      await servers.close();
      await rogue.close();
    }
  });

  test("an https revocation endpoint next to it is used as before", async () => {
    const metadata: Record<string, unknown> = {};
    const rogue = await startRogueAuthorizationServer({ metadata });
    metadata.revocation_endpoint = `${rogue.issuer}/revoke`;
    const servers = await startOAuthServers({ authorizationServers: [rogue.issuer] });
    const store = createMemoryOAuthStore();
    try {
      await new OAuthSession(servers.mcpUrl, { ...recording([]), store }).signIn();
      const result = await new OAuthSession(servers.mcpUrl, { store }).signOut();
      assert.deepEqual(result, { revoked: ["refresh_token", "access_token"] });
      assert.equal(rogue.seen.filter((r) => r.path === "/revoke").length, 2);
    } finally {
      await servers.close();
      await rogue.close();
    }
  });

  test("https and loopback http (127.0.0.0/8, [::1], localhost) pass; others do not", () => {
    for (
      const ok of [
        "https://a.example/x",
        "http://127.0.0.2:1/x",
        "http://[::1]:1/",
        "http://localhost/",
      ]
    ) {
      assert.equal(isAllowedOAuthUrl(new URL(ok)), true, ok);
    }
    for (
      const no of [
        "http://a.example/x",
        "javascript:alert(1)",
        "data:,x",
        "http://128.0.0.1/",
        "file:///etc/passwd",
      ]
    ) {
      assert.equal(isAllowedOAuthUrl(new URL(no)), false, no);
    }
  });

  test("a loopback authorization server still signs in (the rule does not block it)", async () => {
    const opened: URL[] = [];
    const { error, rogue } = await connectVia({}, recording(opened));
    assert.equal(error, undefined, String(error));
    assert.equal(opened.length, 1);
    assert.equal(opened[0].origin, rogue.issuer);
  });
});

/** A server that counts requests: nothing may reach it. */
async function startCanary() {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}`, hits: () => hits, close: listening.close };
}

describe("OAuth: metadata redirects are checked hop by hop", () => {
  for (const which of ["protected-resource", "authorization-server"] as const) {
    test(`${which} metadata redirected to a target the URL policy refuses: no request goes there`, async () => {
      const canary = await startCanary();
      const rogue = await startRogueAuthorizationServer({
        redirect: which === "authorization-server"
          ? { "/.well-known/oauth-authorization-server": `${canary.url}/metadata` }
          : {},
      });
      const servers = await startOAuthServers({
        authorizationServers: [rogue.issuer],
        metadataRedirect: which === "protected-resource" ? `${canary.url}/metadata` : undefined,
      });
      const checked: string[] = [];
      try {
        const session = new OAuthSession(servers.mcpUrl, recording([]), {
          server: "docs",
          // The policy: the canary's port stands for an address it must not reach.
          checkUrl: (url) => {
            checked.push(url.origin);
            if (url.origin === canary.url) {
              return Promise.reject(
                new PolicyError(`docs: ${url.origin} is not allowed`, { field: "url" }),
              );
            }
            return Promise.resolve();
          },
        });
        const error = await session.signIn().then(() => undefined, (e) => e);
        assert.equal(error?.name, "PolicyError", String(error));
        assert.ok(checked.includes(canary.url), "the hop went through the policy");
        assert.equal(canary.hits(), 0, "a request reached the canary");
      } finally {
        await servers.close();
        await rogue.close();
        await canary.close();
      }
    });
  }

  test("connect(): a 302 to http://169.254.169.254 is refused; nothing asks for it", async () => {
    // A fetch that never leaves loopback: it follows redirects itself (as the platform does for
    // redirect "follow"), so an unchecked hop shows up in `asked` instead of on the network.
    const asked: string[] = [];
    const loopbackOnly: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      asked.push(url.href);
      if (url.hostname !== "127.0.0.1") return new Response("{}", { status: 200 });
      const response = await fetch(input, { ...init, redirect: "manual" });
      const location = response.headers.get("location");
      if (init?.redirect !== "manual" && location !== null && response.status >= 300) {
        await response.body?.cancel();
        return await loopbackOnly(new URL(location, url), init);
      }
      return response;
    };
    const servers = await startOAuthServers({
      metadataRedirect: "http://169.254.169.254/latest/meta-data/iam/",
    });
    try {
      const error = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: recording([]),
        http: { fetch: loopbackOnly },
      }).then(() => undefined, (e) => e);
      assert.ok(isOAuthError(error, "insecure_url"), String(error));
      assert.match(
        error.message,
        /the redirect to "http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/"/,
      );
      assert.ok(!asked.some((u) => u.includes("169.254")), `asked for ${asked.join(", ")}`);
    } finally {
      await servers.close();
    }
  });
});
