// Refresh-token rotation (issue 41) against the authorization server of ./_oauth_server.ts, which
// rotates refresh tokens and, with `reuseRevokes`, treats a rotated one presented again as theft
// (RFC 9700 §4.14.2): it refuses it and revokes the token issued in its place. Sessions that
// share a store — in one process, in several Node/Deno processes over the fs store, and over
// unstorage on a real redis-server — refresh at once: the tokens rotate once, every session ends
// with the new access token, the stored refresh token is the newest and still works, and no
// rotated token is ever presented again. A refused refresh (invalid_grant) forgets the dead
// tokens and leads to one sign-in (or one clean error), never a loop.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { connect } from "../../../lib/mod.ts";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  createOAuthStore,
  isOAuthError,
  type OAuthRecord,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import { createFsStorage } from "../../../lib/storage/fs.ts";
import { createUnstorageStorage } from "../../../lib/storage/unstorage.ts";
import { makeTempDir, removeTempDirs } from "../../storage/_tmp.ts";
import { quietRedisErrors, startRedis } from "../../storage/_redis.ts";
import {
  approve,
  type OAuthServerOptions,
  type OAuthServers,
  withOAuthServers,
} from "../_oauth_server.ts";

after(removeTempDirs);

const rotating = (): OAuthServerOptions => ({ reuseRevokes: true, refreshDelayMs: 150 });

function auth(store: OAuthStore, extra: Partial<AuthOptions> = {}): AuthOptions {
  return { store, redirectUri: "http://127.0.0.1:9/callback", onAuthorize: approve, ...extra };
}

/** Make the stored access token due for refresh (still valid at the server). */
async function due(store: OAuthStore, mcpUrl: string): Promise<OAuthRecord> {
  const record = (await store.get(mcpUrl))!;
  record.tokens!.obtainedAt = Date.now() - 3_600_000;
  record.tokens!.expiresAt = Date.now() + 30_000;
  await store.set(mcpUrl, record);
  return record;
}

/** The status of a refresh with `refreshToken` at the server, as any client would send it. */
async function refreshWith(servers: OAuthServers, record: OAuthRecord): Promise<number> {
  const response = await fetch(`${servers.issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: record.tokens!.refreshToken!,
      client_id: record.client!.clientId,
    }),
  });
  await response.body?.cancel();
  return response.status;
}

/** What a concurrent refresh must leave: one rotation, no reuse, one token everywhere. */
async function assertRotatedOnce(
  servers: OAuthServers,
  store: OAuthStore,
  before: OAuthRecord,
  tokens: (string | undefined)[],
): Promise<void> {
  const count = (what: string) => servers.requests.filter((r) => r === what).length;
  assert.equal(count("token refresh_token reused"), 0, "a rotated refresh token went again");
  assert.equal(count("token refresh_token"), 1, "one rotation for all of them");
  const after = (await store.get(servers.mcpUrl))!;
  assert.notEqual(after.tokens!.refreshToken, before.tokens!.refreshToken);
  assert.deepEqual(new Set(tokens), new Set([after.tokens!.accessToken]), "every one has it");
  assert.ok(servers.tokens.has(after.tokens!.accessToken), "and the server accepts it");
  assert.equal(await refreshWith(servers, after), 200, "the stored refresh token still works");
}

describe("OAuth refresh: a rotated refresh token replaces the old one", () => {
  const stores = {
    memory: () => createMemoryOAuthStore(),
    fs: async () => createOAuthStore(createFsStorage({ root: await makeTempDir(), private: true })),
  };
  for (const [kind, make] of Object.entries(stores)) {
    test(`${kind}: in one write, with its access token; the old one is dead`, async () => {
      await withOAuthServers(rotating(), async (servers) => {
        const inner = await make();
        const writes: OAuthRecord[] = [];
        const store: OAuthStore = {
          ...inner,
          get: (r) => inner.get(r),
          delete: (r) => inner.delete(r),
          set: (r, record) => (writes.push(structuredClone(record)), inner.set(r, record)),
          exclusive: (r, fn) => inner.exclusive!(r, fn),
        };
        await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
        const before = await due(store, servers.mcpUrl);
        writes.length = 0;
        const token = await new OAuthSession(servers.mcpUrl, { store }).accessToken();
        assert.equal(writes.length, 1, "one write");
        const [written] = writes;
        assert.equal(written.tokens!.accessToken, token);
        assert.notEqual(written.tokens!.refreshToken, before.tokens!.refreshToken);
        assert.deepEqual(await store.get(servers.mcpUrl), written);
        assert.equal(await refreshWith(servers, before), 400, "the rotated one is refused");
      });
    });
  }

  for (const [kind, make] of Object.entries(stores)) {
    test(`${kind}: 8 sessions sharing the store refresh at once, and rotate once`, async () => {
      await withOAuthServers(rotating(), async (servers) => {
        const store = await make();
        await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
        const before = await due(store, servers.mcpUrl);
        const tokens = await Promise.all(
          Array.from(
            { length: 8 },
            () => new OAuthSession(servers.mcpUrl, { store }).accessToken(),
          ),
        );
        await assertRotatedOnce(servers, store, before, tokens);
      });
    });
  }
});

/** Start `count` children of ./_refresh_child.ts, let them go at once, and collect their tokens. */
async function refreshInProcesses(
  count: number,
  args: string[],
): Promise<(string | undefined)[]> {
  const child = fileURLToPath(new URL("../_refresh_child.ts", import.meta.url));
  const command = "Deno" in globalThis
    ? ["run", "-A", child, ...args]
    : ["--import", "tsx", child, ...args];
  const children = Array.from({ length: count }, () => {
    const proc = spawn(process.execPath, command, { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    const ready = new Promise<void>((resolve, reject) => {
      proc.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("ready\n")) resolve();
      });
      proc.once(
        "exit",
        (code) => reject(new Error(`a child exited (${code}) before it was ready`)),
      );
    });
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    const kill = setTimeout(() => proc.kill("SIGKILL"), 60_000);
    return { proc, ready, exited, kill, out: () => out };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.proc.stdin.write("go\n");
    await Promise.all(children.map((c) => c.exited));
  } finally {
    for (const c of children) clearTimeout(c.kill);
  }
  return children.map((c) => {
    const line = c.out().trim().split("\n").at(-1)!;
    const result = JSON.parse(line) as { token?: string; error?: string };
    assert.equal(result.error, undefined, `a child failed: ${result.error}`);
    return result.token;
  });
}

describe("OAuth refresh: processes refreshing at once do not lose the new token", () => {
  test("6 processes over the fs store (the CLI's) rotate once", async () => {
    await withOAuthServers(rotating(), async (servers) => {
      const root = await makeTempDir();
      const store = createOAuthStore(createFsStorage({ root, private: true }));
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      const before = await due(store, servers.mcpUrl);
      const tokens = await refreshInProcesses(6, ["fs", root, servers.mcpUrl]);
      await assertRotatedOnce(servers, store, before, tokens);
    });
  });

  test("6 processes over unstorage on a real redis-server rotate once", async () => {
    const redis = await startRedis();
    const u = createStorage({ driver: redisDriver({ url: redis.url, maxRetriesPerRequest: 1 }) });
    quietRedisErrors(u);
    try {
      await withOAuthServers(rotating(), async (servers) => {
        const store = createOAuthStore(createUnstorageStorage(u));
        await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
        const before = await due(store, servers.mcpUrl);
        const tokens = await refreshInProcesses(6, ["redis", redis.url, servers.mcpUrl]);
        await assertRotatedOnce(servers, store, before, tokens);
        const left = (await u.getKeys()).filter((key) => key.endsWith(".lock"));
        assert.deepEqual(left, [], "every lease was given back");
      });
    } finally {
      await u.dispose();
      await redis.stop();
    }
  });
});

describe("OAuth refresh: a refused refresh leads to one sign-in, not a loop", () => {
  test("with onAuthorize: one refresh tried, one sign-in, and the connection goes on", async () => {
    const options: OAuthServerOptions = {};
    await withOAuthServers(options, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      await due(store, servers.mcpUrl);
      options.refusedRefresh = true;
      let prompts = 0;
      const client = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: auth(store, { onAuthorize: (url) => (prompts++, approve(url)) }),
      });
      await client.listTools();
      await client.close();
      assert.equal(prompts, 1, "one sign-in");
      assert.equal(servers.requests.filter((r) => r === "token refresh_token").length, 1);
      assert.equal(servers.requests.filter((r) => r === "token authorization_code").length, 2);
    });
  });

  test("without onAuthorize: one clean sign_in_required, and the dead token is not tried again", async () => {
    const options: OAuthServerOptions = {};
    await withOAuthServers(options, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      const before = await due(store, servers.mcpUrl);
      options.refusedRefresh = true;
      servers.tokens.clear();
      const refreshes = () => servers.requests.filter((r) => r === "token refresh_token").length;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const error = await connect({ name: "docs", url: servers.mcpUrl }, { auth: { store } })
          .then((c) => c.close().then(() => undefined), (e) => e);
        assert.ok(isOAuthError(error, "sign_in_required"), `attempt ${attempt}: ${error}`);
        assert.match(error.message, /^docs: sign-in needed \(OAuth, authorization server http:/);
        assert.ok(!error.message.includes(before.tokens!.refreshToken!));
        assert.equal(refreshes(), 1, `attempt ${attempt}: the refused token was sent once only`);
      }
      assert.deepEqual(await store.get(servers.mcpUrl), {
        issuer: before.issuer,
        client: before.client,
      });
    });
  });

  test("a refused client (invalid_client) is registered again for the one sign-in", async () => {
    const options: OAuthServerOptions = {};
    await withOAuthServers(options, async (servers) => {
      const store = createMemoryOAuthStore();
      await new OAuthSession(servers.mcpUrl, auth(store)).signIn();
      const before = await due(store, servers.mcpUrl);
      options.refusedClient = true;
      let prompts = 0;
      const client = await connect({ name: "docs", url: servers.mcpUrl }, {
        auth: auth(store, { onAuthorize: (url) => (prompts++, approve(url)) }),
      });
      await client.close();
      assert.equal(prompts, 1);
      assert.equal(servers.requests.filter((r) => r === "POST /register").length, 2);
      const after = (await store.get(servers.mcpUrl))!;
      assert.notEqual(after.client!.clientId, before.client!.clientId, "a new registration");
    });
  });
});
