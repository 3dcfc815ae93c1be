import { expect, test } from "@playwright/test";
import { serveBundle, type ServedBundle } from "./_serve.ts";

interface SecretsPage {
  add(apiKey: string): Promise<void>;
  read(): Promise<{ apiKey?: string; header?: string }>;
  key(): Promise<{ extractable: boolean; algorithm: string; exported: string; id: string }>;
  written(): Promise<string>;
  ready: boolean;
}
type Page = typeof globalThis & { __secrets: SecretsPage };

let served: ServedBundle;
test.beforeAll(async () => {
  served = await serveBundle("test/browser/_secrets_page.ts", { title: "secrets" });
});
test.afterAll(async () => {
  await served?.close();
});

test("secrets sealed with a non-extractable CryptoKey kept in IndexedDB survive a reload", async ({ page }) => {
  const SECRET = "sk-browser-secret-42";
  await page.goto(served.url);
  await page.waitForFunction(() => (globalThis as Page).__secrets?.ready === true);
  const key = await page.evaluate(() => (globalThis as Page).__secrets.key());
  expect(key.extractable).toBe(false);
  expect(key.algorithm).toBe("AES-GCM");
  expect(key.exported).toBe("InvalidAccessError");
  await page.evaluate((secret) => (globalThis as Page).__secrets.add(secret), SECRET);
  const written = await page.evaluate(() => (globalThis as Page).__secrets.written());
  expect(written).toContain("enc:v1:");
  expect(written).not.toContain(SECRET);
  await page.reload();
  await page.waitForFunction(() => (globalThis as Page).__secrets?.ready === true);
  expect((await page.evaluate(() => (globalThis as Page).__secrets.key())).id).toBe(key.id);
  expect(await page.evaluate(() => (globalThis as Page).__secrets.read())).toEqual({
    apiKey: SECRET,
    header: SECRET,
  });
});
