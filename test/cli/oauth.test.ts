// `skillmux mcp add|login|list|ping|logout` against a real OAuth authorization server and a
// protected MCP server on 127.0.0.1 (test/mcp/_oauth_server.ts). The test plays the browser:
// it fetches the sign-in URL the CLI prints and follows the redirect to the CLI's loopback port.
import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import http from "node:http";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { run } from "../../lib/cli/main.ts";
import { endpointOf } from "../../lib/cli/mcp_login.ts";
import { connect } from "../../lib/mod.ts";
import { createOAuthStore } from "../../lib/mcp/auth/store.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import {
  type OAuthServerOptions,
  type OAuthServers,
  startOAuthServers,
} from "../mcp/_oauth_server.ts";
import { listenLocal } from "../mcp/_servers.ts";
import { cli, INVOKE, tempHome } from "./_helpers.ts";

describe("CLI: OAuth sign-in", () => {
  let servers: OAuthServers;
  const faults: OAuthServerOptions = {};
  let home: Awaited<ReturnType<typeof tempHome>>;
  let config: string;
  const sh = (...argv: string[]) => cli(["--config-dir", config, ...argv], home.env);

  before(async () => {
    servers = await startOAuthServers(faults);
    home = await tempHome();
    config = join(home.dir, "cfg");
  });
  after(async () => {
    await servers.close();
    await home.close();
  });

  test("mcp add of a server behind OAuth keeps it and says how to sign in", async () => {
    const out = await sh("mcp", "add", servers.mcpUrl, "--name", "docs");
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      new RegExp(`Added "docs".*sign-in needed.*run ${INVOKE} mcp login docs`),
    );
    const ping = await sh("mcp", "ping", "docs");
    assert.equal(ping.code, 1);
    assert.match(ping.stdout, new RegExp(`sign-in needed.*run ${INVOKE} mcp login docs`));
  });

  /** `mcp login docs` (or `argv`), with the test as the browser: it follows the printed URL's redirect. */
  async function login(
    argv = ["mcp", "login", "docs", "--no-browser"],
    ask?: (question: string) => Promise<string>,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    let stderr = "";
    let stdout = "";
    let browsed: Promise<void> | undefined;
    const code = await run(["--config-dir", config, ...argv], {
      env: home.env,
      ask,
      stdout: (t) => (stdout += t),
      stderr: (t) => {
        stderr += t;
        const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(t)?.[1];
        if (url && !browsed) {
          browsed = (async () => {
            const approved = await fetch(url, { redirect: "manual" });
            await approved.body?.cancel();
            const back = approved.headers.get("location")!;
            assert.match(back, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
            const page = await fetch(back);
            assert.match(await page.text(), /return to the terminal/);
          })();
        }
      },
    });
    await browsed;
    return { code, stdout, stderr };
  }

  test("mcp login: the browser's redirect reaches the loopback port and tokens are stored 0600", async () => {
    const { code, stdout, stderr } = await login();
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Signed in to "docs"/);
    const files = await readdir(join(config, "oauth"));
    assert.equal(files.length, 1);
    if (process.platform !== "win32") {
      assert.equal((await stat(join(config, "oauth", files[0]))).mode & 0o777, 0o600);
    }
    for (const token of servers.tokens) {
      assert.doesNotMatch(await readFile(join(config, "config.toml"), "utf8"), new RegExp(token));
    }
  });

  test("a failed login (a redirect with a wrong state) says why and keeps the tokens", async () => {
    const before = await readdir(join(config, "oauth"));
    const kept = await readFile(join(config, "oauth", before[0]), "utf8");
    faults.state = "wrong";
    try {
      const { code, stderr } = await login();
      assert.equal(code, 1);
      assert.match(stderr, /Sign-in failed: .*state/);
    } finally {
      delete faults.state;
    }
    assert.equal(await readFile(join(config, "oauth", before[0]), "utf8"), kept);
  });

  test("after login: mcp list and ping work, no token is shown, and a tool call goes through", async () => {
    const list = await sh("mcp", "list");
    assert.equal(list.code, 0);
    assert.match(list.stdout, /oauth: signed in/);
    const ping = await sh("mcp", "ping", "docs");
    assert.equal(ping.code, 0, ping.stdout + ping.stderr);
    assert.match(ping.stdout, /✓\s+docs/);
    for (const token of servers.tokens) {
      assert.ok(!list.stdout.includes(token) && !ping.stdout.includes(token));
    }
    const store = createOAuthStore(createFsStorage({ root: config, private: true }));
    const client = await connect({ name: "docs", url: servers.mcpUrl }, { auth: { store } });
    const result = await client.callTool("echo", { text: "hi" });
    assert.match(JSON.stringify(result), /hi/);
    await client.close();
  });

  /** The tokens the CLI stored for the test server. */
  async function stored() {
    const store = createOAuthStore(createFsStorage({ root: config, private: true }));
    return (await store.get(endpointOf(servers.mcpUrl)))?.tokens;
  }

  /** A refresh_token grant at the authorization server with `refreshToken`: its HTTP status. */
  async function refreshWith(refreshToken: string): Promise<number> {
    const response = await fetch(`${servers.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
    });
    await response.body?.cancel();
    return response.status;
  }

  test("mcp logout revokes the tokens at the authorization server, then forgets them", async () => {
    const tokens = await stored();
    assert.ok(tokens?.refreshToken, "a refresh token is stored");
    const out = await sh("mcp", "logout", "docs");
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stderr, "");
    assert.deepEqual(servers.revoked, [tokens.refreshToken, tokens.accessToken]);
    assert.ok(servers.requests.includes("revoke refresh_token"));
    assert.equal(await refreshWith(tokens.refreshToken), 400, "the revoked refresh token is dead");
    assert.ok(!servers.tokens.has(tokens.accessToken), "the revoked access token is dead");
    assert.deepEqual(await readdir(join(config, "oauth")).catch(() => []), []);
    const ping = await sh("mcp", "ping", "docs");
    assert.equal(ping.code, 1);
    assert.match(ping.stdout, /sign-in needed/);
  });

  test("mcp add offers the sign-in when interactive, and signs in when accepted", async () => {
    assert.equal((await sh("mcp", "remove", "docs")).code, 0);
    const asked: string[] = [];
    const { code, stderr } = await login(
      ["mcp", "add", servers.mcpUrl, "--name", "docs2", "--no-browser"],
      (question) => (asked.push(question), Promise.resolve("y")),
    );
    assert.equal(code, 0, stderr);
    assert.match(asked.join(), /"docs2" needs a sign-in \(OAuth\)\. Sign in now\?/);
    assert.match(stderr, /Signed in to "docs2"/);
    const ping = await sh("mcp", "ping", "docs2");
    assert.equal(ping.code, 0, ping.stdout);
  });

  /** Sign in to docs2 again, then `mcp logout docs2` with `fault` set; the old tokens. */
  async function logoutWith(fault: OAuthServerOptions) {
    const signedIn = await login(["mcp", "login", "docs2", "--no-browser"]);
    assert.equal(signedIn.code, 0, signedIn.stderr);
    const tokens = (await stored())!;
    const revokedBefore = servers.revoked.length;
    const asked = () => servers.requests.filter((r) => r.startsWith("revoke")).length;
    const askedBefore = asked();
    Object.assign(faults, fault);
    try {
      const out = await sh("mcp", "logout", "docs2");
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /Signed out of "docs2"/);
      assert.equal(await stored(), undefined, "the tokens are forgotten");
      assert.deepEqual(await readdir(join(config, "oauth")).catch(() => []), []);
      for (const token of [tokens.accessToken, tokens.refreshToken!]) {
        assert.ok(!out.stdout.includes(token) && !out.stderr.includes(token), "no token shown");
      }
      assert.equal(servers.revoked.length, revokedBefore, "nothing was revoked");
      return { out, tokens, asked: asked() - askedBefore };
    } finally {
      for (const key of Object.keys(fault)) delete faults[key as keyof OAuthServerOptions];
    }
  }

  test("mcp logout at an authorization server without a revocation endpoint forgets locally", async () => {
    const { out, tokens, asked } = await logoutWith({ noRevocation: true });
    assert.equal(out.stderr, "");
    assert.equal(asked, 0);
    assert.equal(await refreshWith(tokens.refreshToken!), 200, "the server was not asked");
  });

  test("mcp logout when revocation fails (HTTP 500) warns and still forgets", async () => {
    const { out, asked } = await logoutWith({ revocationStatus: 500 });
    assert.equal(asked, 1, "the refresh token's revocation was tried, then given up");
    assert.match(
      out.stderr,
      /warning: docs2: revoking the refresh token at .*\/revoke failed \(HTTP 500\)/,
    );
  });

  test("a plain-http revocation endpoint: mcp login signs in, mcp logout skips it and says so", async () => {
    faults.revocationEndpoint = "http://auth.example.com/revoke";
    try {
      const signedIn = await login(["mcp", "login", "docs2", "--no-browser"]);
      assert.equal(signedIn.code, 0, signedIn.stderr);
      assert.match(signedIn.stdout, /Signed in to "docs2"/);
      const tokens = (await stored())!;
      const out = await sh("mcp", "logout", "docs2");
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /Signed out of "docs2"/);
      assert.match(
        out.stderr,
        /^warning: docs2: revocation skipped: the authorization server's revocation_endpoint "http:\/\/auth\.example\.com\/revoke" is not https .*forgotten here, but stay valid at the server until they expire\n$/,
      );
      assert.equal(await stored(), undefined, "the tokens are forgotten");
      assert.equal(await refreshWith(tokens.refreshToken!), 200, "and were not revoked");
    } finally {
      delete faults.revocationEndpoint;
    }
  });

  test("mcp logout when the revocation endpoint is unreachable warns and still forgets", async () => {
    const closed = http.createServer();
    const { port } = await listenLocal(closed).then(async (l) => (await l.close(), l));
    const { out } = await logoutWith({ revocationEndpoint: `http://127.0.0.1:${port}/revoke` });
    assert.match(
      out.stderr,
      /warning: docs2: revoking the refresh token at .* failed \(network error\)/,
    );
  });
});
