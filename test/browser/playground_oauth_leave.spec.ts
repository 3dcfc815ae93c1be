// Leaving the page ends the session with an OAuth-protected server too: its DELETE carries the
// bearer token, which the page must have at hand when `pagehide` fires (read from the sealed
// IndexedDB store and decrypted only after the page is gone, the DELETE was never sent).
import { expect, type Page, test } from "@playwright/test";
import {
  type OAuthServerOptions,
  type OAuthServers,
  startOAuthServers,
} from "../mcp/_oauth_server.ts";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let playground: RunningPlayground;
let secure: OAuthServers;
let page: Page;
// Sessions (stateful), so that there is a session to end; CORS for the playground's origin.
const options: OAuthServerOptions = { json: true, cors: true, stateful: true };

test.describe("playground: leaving ends an OAuth server's session", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [playground, secure] = await Promise.all([startPlayground(), startOAuthServers(options)]);
    options.asCors = new URL(playground.url).origin;
    page = await browser.newPage();
  });

  test.afterAll(async () => {
    await page?.close();
    playground?.stop();
    await secure?.close();
  });

  // (Chromium reports no request events of a page being unloaded: the server's log is the witness.)
  test("signed in, tools listed; leaving the page sends the DELETE", async () => {
    test.setTimeout(90_000);
    await page.goto(playground.url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("secure");
    await page.getByLabel("URL", { exact: true }).fill(secure.mcpUrl);
    await page.getByTestId("server-add").click();
    const card = page.getByTestId("server-secure");
    const popup = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in to secure" }).click();
    await popup;
    // After a sign-in in a popup: the token exchange and the first listing, slow under load.
    await expect(card.getByTestId("server-ping-result")).toContainText(/\d+ tools/, {
      timeout: 20_000,
    });
    // The Tools view holds a session open (clientFor) until the page goes away.
    await page.getByTestId("tab-tools").click();
    await expect(page.getByTestId("tool-secure-echo")).toBeVisible();
    await page.waitForTimeout(1_000);
    const before = secure.requests.length;
    await page.goto("about:blank");
    await expect.poll(
      () => secure.requests.slice(before).filter((r) => r === "DELETE /mcp").length,
      {
        timeout: 10_000,
      },
    ).toBeGreaterThan(0);
  });
});
