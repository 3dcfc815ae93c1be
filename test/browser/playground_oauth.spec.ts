// The playground's "Sign in" in real Chromium: a live OAuth-protected MCP server and a local
// authorization server (test/mcp/_oauth_server.ts) on 127.0.0.1. With CORS allowed for the
// playground's origin, the popup flow signs in, the tokens land in IndexedDB sealed (never in
// localStorage or the page's text), and the server's tools list; "Sign out" revokes them at the
// authorization server (RFC 7009) and forgets them. With the authorization server refusing
// CORS, the page says so, naming its origin and the CLI way.
import { expect, type Page, test } from "@playwright/test";
import {
  type OAuthServerOptions,
  type OAuthServers,
  startOAuthServers,
} from "../mcp/_oauth_server.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

const SHOTS = "test-results/playground-oauth";

let playground: RunningPlayground;
let open: OAuthServers; // the authorization server allows the playground's origin
let closed: OAuthServers; // the authorization server sends no CORS headers
let tokenClosed: OAuthServers; // CORS on its metadata and registration, not on its token endpoint
let page: Page;
// Read per request by the servers: `asCors` is set once the playground's origin is known.
const openOptions: OAuthServerOptions = { json: true, cors: true };
const tokenClosedOptions: OAuthServerOptions = { json: true, cors: true, asCorsExcept: "/token" };

test.describe.configure({ mode: "serial" });

async function addServer(name: string, serverUrl: string): Promise<void> {
  await page.getByTestId("tab-servers").click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL", { exact: true }).fill(serverUrl);
  await page.getByTestId("server-add").click();
}

/** Everything the page keeps outside IndexedDB, and the raw IndexedDB values of the tokens. */
async function kept(): Promise<
  { local: string; session: string; text: string; html: string; idb: string }
> {
  return await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("skillmux-oauth");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const values = await new Promise<unknown[]>((resolve, reject) => {
      const request = db.transaction("kv").objectStore("kv").getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return {
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      text: document.body.innerText,
      html: document.documentElement.outerHTML,
      idb: JSON.stringify(values),
    };
  });
}

test.describe("playground: sign in to an OAuth-protected server", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [playground, open, closed, tokenClosed] = await Promise.all([
      startPlayground(),
      startOAuthServers(openOptions),
      startOAuthServers({ json: true, cors: true }),
      startOAuthServers(tokenClosedOptions),
    ]);
    openOptions.asCors = tokenClosedOptions.asCors = new URL(playground.url).origin;
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  test.afterAll(async () => {
    await page?.close();
    playground?.stop();
    await Promise.all([open?.close(), closed?.close(), tokenClosed?.close()]);
  });

  test("a server that needs sign-in offers it; the popup flow signs in and its tools list", async () => {
    await page.goto(playground.url);
    await addServer("secure", open.mcpUrl);
    const card = page.getByTestId("server-secure");
    await expect(card.getByTestId("server-sign-in-needed")).toContainText("Sign-in needed");
    await expect(card.getByRole("button", { name: "Sign in to secure" })).toBeVisible();
    await expect(page.getByTestId("server-form-error")).toHaveCount(0);
    await axe(page, "servers: sign-in needed");

    const popup = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in to secure" }).click();
    const window = await popup;
    // After a sign-in in a popup: the token exchange and the first listing, slow under load.
    await expect(card.getByTestId("server-ping-result")).toContainText(/\d+ tools/, {
      timeout: 20_000,
    });
    await expect(card.getByRole("button", { name: "Sign out of secure" })).toBeVisible();
    await expect(card.getByTestId("server-sign-in-needed")).toHaveCount(0);
    expect(window.isClosed(), "the sign-in window closed").toBe(true);
    expect(open.requests).toContain("GET /authorize");
    expect(open.requests).toContain("token authorization_code");

    await page.getByTestId("tab-tools").click();
    await expect(page.getByTestId("tool-secure-echo")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/signed-in-tools.png`, fullPage: true });

    const tokens = [...open.tokens];
    expect(tokens.length).toBeGreaterThan(0);
    const state = await kept();
    expect(state.idb).toContain("enc:v1:");
    for (const token of tokens) {
      for (const [where, value] of Object.entries(state)) {
        expect(value.includes(token), `token in ${where}`).toBe(false);
      }
    }
    await page.getByTestId("tab-activity").click();
    const activity = await page.locator("body").innerText();
    for (const token of tokens) expect(activity.includes(token), "token in activity").toBe(false);
    await page.getByTestId("tab-servers").click();
    await axe(page, "servers: signed in");
  });

  test("sign out revokes the tokens at the authorization server and forgets them", async () => {
    const card = page.getByTestId("server-secure");
    const issued = [...open.tokens];
    await card.getByRole("button", { name: "Sign out of secure" }).click();
    await expect(card.getByRole("button", { name: "Sign in to secure" })).toBeVisible();
    await expect(card.getByTestId("server-sign-in-needed")).toBeVisible();
    await expect(card.getByRole("button", { name: "Sign out of secure" })).toHaveCount(0);
    expect((await kept()).idb).toBe("[]");
    expect(open.requests).toContain("revoke refresh_token");
    expect(open.requests).toContain("revoke access_token");
    expect(open.revoked.length).toBe(2);
    expect(issued).toContain(open.revoked[1]); // the access token the page held
    expect(open.tokens.has(open.revoked[1])).toBe(false);
    await expect(card.getByTestId("server-error")).toHaveCount(0);
  });

  test("an authorization server that refuses CORS: a clear message naming it and the CLI way", async () => {
    await addServer("locked", closed.mcpUrl);
    const card = page.getByTestId("server-locked");
    await expect(card.getByTestId("server-sign-in-needed")).toBeVisible();
    const popup = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in to locked" }).click();
    const window = await popup;
    const error = card.getByTestId("server-error");
    await expect(error).toContainText(`The authorization server ${closed.issuer}`);
    await expect(error).toContainText("must allow CORS for this origin");
    await expect(error).toContainText(new URL(playground.url).origin);
    await expect(error).toContainText("skillmux mcp login locked");
    expect(closed.requests).not.toContain("GET /authorize");
    await expect.poll(() => window.isClosed(), { message: "the sign-in window closes" }).toBe(true);
    await page.screenshot({ path: `${SHOTS}/cors-refused.png`, fullPage: true });
    await axe(page, "servers: CORS refused");
  });

  test("a token endpoint that refuses CORS after the authorization: the same clear message", async () => {
    await addServer("tokenlocked", tokenClosed.mcpUrl);
    const card = page.getByTestId("server-tokenlocked");
    const popup = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in to tokenlocked" }).click();
    const window = await popup;
    const error = card.getByTestId("server-error");
    await expect(error).toContainText(`The authorization server ${tokenClosed.issuer}`);
    await expect(error).toContainText("skillmux mcp login tokenlocked");
    // The user approved (the authorize page ran); the code could not be redeemed from the page.
    expect(tokenClosed.requests).toContain("GET /authorize");
    expect(tokenClosed.requests).toContain("token authorization_code");
    expect(tokenClosed.tokens.size, "the token endpoint issued a token").toBe(1);
    await expect.poll(() => window.isClosed()).toBe(true);
    await expect(card.getByRole("button", { name: "Sign out of tokenlocked" })).toHaveCount(0);
    await axe(page, "servers: token endpoint refuses CORS");
  });
});
