import { expect, test } from "@playwright/test";
import { createMemoryOAuthStore, type OAuthRecord, OAuthSession } from "../../lib/mcp/auth/mod.ts";
import { approve, type OAuthServerOptions, startOAuthServers } from "../mcp/_oauth_server.ts";
import { serveBundle, type ServedBundle } from "./_serve.ts";

interface OAuthPage {
  save(record: unknown): Promise<void>;
  read(): Promise<unknown>;
  forget(): Promise<void>;
  written(): Promise<string>;
  saveFor(resource: string, record: unknown): Promise<void>;
  readFor(resource: string): Promise<OAuthRecord | undefined>;
  accessToken(resource: string): Promise<string | undefined>;
  ready: boolean;
}
type Page = typeof globalThis & { __oauth: OAuthPage };

let served: ServedBundle;
test.beforeAll(async () => {
  served = await serveBundle("test/browser/_oauth_page.ts", { title: "oauth" });
});
test.afterAll(async () => {
  await served?.close();
});

test("OAuth tokens in IndexedDB are sealed with a non-extractable key and survive a reload", async ({ page }) => {
  const record = {
    issuer: "https://auth.example.com",
    client: { clientId: "c-1", clientSecret: "cs-browser-secret", kind: "dynamic" },
    tokens: { accessToken: "at-browser-secret", refreshToken: "rt-browser-secret", scope: "mcp" },
  };
  await page.goto(served.url);
  await page.waitForFunction(() => (globalThis as Page).__oauth?.ready === true);
  await page.evaluate((r) => (globalThis as Page).__oauth.save(r), record);
  const written = await page.evaluate(() => (globalThis as Page).__oauth.written());
  expect(written).toContain("enc:v1:");
  expect(written).not.toContain("browser-secret");
  await page.reload();
  await page.waitForFunction(() => (globalThis as Page).__oauth?.ready === true);
  expect(await page.evaluate(() => (globalThis as Page).__oauth.read())).toEqual(record);
  await page.evaluate(() => (globalThis as Page).__oauth.forget());
  expect(await page.evaluate(() => (globalThis as Page).__oauth.read())).toBeUndefined();
});

test("two tabs refreshing at once over IndexedDB rotate the refresh token once", async ({ context }) => {
  // Rotating refresh tokens with reuse detection: a tab that presented the rotated one again
  // would revoke the grant for both (RFC 9700 §4.14.2).
  const options: OAuthServerOptions = {
    cors: true,
    asCors: served.origin,
    reuseRevokes: true,
    refreshDelayMs: 200,
  };
  const servers = await startOAuthServers(options);
  try {
    const signedIn = createMemoryOAuthStore();
    await new OAuthSession(servers.mcpUrl, {
      store: signedIn,
      redirectUri: "http://127.0.0.1:9/callback",
      onAuthorize: approve,
    }).signIn();
    const record = (await signedIn.get(servers.mcpUrl))!;
    record.tokens!.obtainedAt = Date.now() - 3_600_000;
    record.tokens!.expiresAt = Date.now() + 30_000; // due for refresh, still valid
    const tabs = [await context.newPage(), await context.newPage()];
    for (const tab of tabs) {
      await tab.goto(served.url);
      await tab.waitForFunction(() => (globalThis as Page).__oauth?.ready === true);
    }
    await tabs[0].evaluate(
      ([url, r]) => (globalThis as Page).__oauth.saveFor(url, r),
      [
        servers.mcpUrl,
        record,
      ] as const,
    );
    const tokens = await Promise.all(
      tabs.map((tab) =>
        tab.evaluate((url) => (globalThis as Page).__oauth.accessToken(url), servers.mcpUrl)
      ),
    );
    const count = (what: string) => servers.requests.filter((r) => r === what).length;
    expect(count("token refresh_token reused")).toBe(0);
    expect(count("token refresh_token")).toBe(1);
    const stored = await tabs[1].evaluate(
      (url) => (globalThis as Page).__oauth.readFor(url),
      servers.mcpUrl,
    );
    expect(stored!.tokens!.refreshToken).not.toBe(record.tokens!.refreshToken);
    expect(tokens).toEqual([stored!.tokens!.accessToken, stored!.tokens!.accessToken]);
    expect(servers.tokens.has(stored!.tokens!.accessToken)).toBe(true);
    const written = await tabs[1].evaluate(() => (globalThis as Page).__oauth.written());
    expect(written).not.toContain(".lock");
    // The stored refresh token is the live one: the server rotates it once more.
    const again = await fetch(`${servers.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: stored!.tokens!.refreshToken!,
        client_id: stored!.client!.clientId,
      }),
    });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    for (const tab of tabs) await tab.close();
  } finally {
    await servers.close();
  }
});
