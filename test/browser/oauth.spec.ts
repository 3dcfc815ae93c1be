import { expect, test } from "@playwright/test";
import { serveBundle, type ServedBundle } from "./_serve.ts";

interface OAuthPage {
  save(record: unknown): Promise<void>;
  read(): Promise<unknown>;
  forget(): Promise<void>;
  written(): Promise<string>;
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
