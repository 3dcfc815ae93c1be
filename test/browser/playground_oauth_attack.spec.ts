// Issue 18 in real Chromium: an MCP server whose metadata names a rogue authorization server
// with `authorization_endpoint: "javascript:…"`. Before the fix, "Sign in" navigated the
// same-origin sign-in popup there and the script ran in the playground's origin (it wrote
// localStorage and fetched a canary). Now the library refuses the endpoint before onAuthorize
// and the playground opens only http(s) URLs: the page names the refusal, nothing ran.
import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { type OAuthServers, startOAuthServers } from "../mcp/_oauth_server.ts";
import { type RogueServer, startRogueAuthorizationServer } from "../mcp/_oauth_rogue.ts";
import { listenLocal } from "../mcp/_servers.ts";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let playground: RunningPlayground;
let servers: OAuthServers;
let rogue: RogueServer;
let canary: { url: string; close(): Promise<void> };
let hits = 0;
let page: Page;

test.describe("playground: a javascript: authorization endpoint", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const listening = await listenLocal(http.createServer((_req, res) => {
      hits++;
      res.writeHead(204, { "access-control-allow-origin": "*" }).end();
    }));
    canary = { url: `http://127.0.0.1:${listening.port}`, close: listening.close };
    rogue = await startRogueAuthorizationServer({
      metadata: {
        authorization_endpoint:
          `javascript:localStorage.setItem('pwned','1');fetch('${canary.url}/hit');//`,
      },
    });
    [playground, servers] = await Promise.all([
      startPlayground(),
      startOAuthServers({ json: true, cors: true, authorizationServers: [rogue.issuer] }),
    ]);
    page = await browser.newPage();
  });

  test.afterAll(async () => {
    await page?.close();
    playground?.stop();
    await Promise.all([servers?.close(), rogue?.close(), canary?.close()]);
  });

  test("Sign in refuses it with a clear message; no script runs in the page's origin", async () => {
    await page.goto(playground.url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("hostile");
    await page.getByLabel("URL", { exact: true }).fill(servers.mcpUrl);
    await page.getByTestId("server-add").click();
    const card = page.getByTestId("server-hostile");
    const popup = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in to hostile" }).click();
    const window = await popup;
    const error = card.getByTestId("server-error");
    // Whichever comes first: the refusal on the page, or the script's canary request.
    await expect.poll(async () => hits + (await error.count()), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.waitForTimeout(300); // a script, had one run, would have written by now
    expect(hits, "the script ran: it fetched the canary").toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("pwned"))).toBeNull();
    // The library's refusal; or, should a URL ever get past it, the playground's own guard.
    await expect(error).toContainText(
      /authorization_endpoint .*https URL|only http: and https: pages are opened/,
    );
    await expect.poll(() => window.isClosed(), { message: "the sign-in window closes" }).toBe(true);
    expect(rogue.seen.map((r) => r.path)).not.toContain("/register");
  });
});
