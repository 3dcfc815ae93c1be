// serveSkills reached from real Chromium: our client in a page connects across origins
// (real fetch, real CORS preflights) and reads a skill; a page on another origin is refused.
import { expect, type Page, test } from "@playwright/test";
import { serveBundle, type ServedBundle } from "./_serve.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import type * as Skillmux from "../../lib/mod.ts";

type PageGlobals = typeof globalThis & { __skillmux: typeof Skillmux };

let allowedPage: ServedBundle;
let foreignPage: ServedBundle;
let server: SkillsServer;
const pages: Page[] = [];

async function openPage(browser: import("@playwright/test").Browser, url: string) {
  const page = await browser.newPage();
  pages.push(page);
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as PageGlobals).__skillmux !== undefined);
  return page;
}

/** From the page: connect to `url` with a bearer token and read skill://samtools. */
function readSamtools(page: Page, url: string) {
  return page.evaluate(async (url) => {
    const { connect } = (globalThis as PageGlobals).__skillmux;
    try {
      const client = await connect(
        { name: "skills", url, apiKey: "page-token" },
        { http: { retries: 0 } },
      );
      const [content] = await client.readResource("skill://samtools");
      const listed = (await client.listResources()).length;
      await client.close();
      return { ok: true, text: content.text ?? "", listed };
    } catch (error) {
      return { ok: false, text: String((error as Error).message), listed: 0 };
    }
  }, url);
}

test.describe("skills server from Chromium", () => {
  test.beforeAll(async () => {
    [allowedPage, foreignPage] = await Promise.all([
      serveBundle("test/browser/_resolve_page.ts", { title: "allowed" }),
      serveBundle("test/browser/_resolve_page.ts", { title: "foreign" }),
    ]);
    server = await serveSkills({
      allowedOrigins: [allowedPage.origin],
      token: "page-token",
      sessions: true,
    });
  });

  test.afterAll(async () => {
    for (const page of pages) await page.close();
    await server?.close();
    await allowedPage?.close();
    await foreignPage?.close();
  });

  test("an allowed page connects across origins and reads a skill", async ({ browser }) => {
    const page = await openPage(browser, allowedPage.url);
    const found = await readSamtools(page, server.url);
    expect(found.ok, found.text).toBe(true);
    expect(found.text).toMatch(/^---\nname: samtools\n/);
    expect(found.listed).toBeGreaterThanOrEqual(16);
  });

  test("a page on a non-allowed origin is refused", async ({ browser }) => {
    const page = await openPage(browser, foreignPage.url);
    const found = await readSamtools(page, server.url);
    expect(found.ok).toBe(false);
  });
});
