// The playground reaches an MCP server that sends no CORS headers through `npm start`'s relay
// (opt-in per server, labelled "via relay"), and the relay refuses the page's requests that lack
// the token or name a server the person did not add, before the server sees anything.
import { expect, type Page, test } from "@playwright/test";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let noCors: SdkServer;
let other: SdkServer;
let page: Page;

test.describe.configure({ mode: "serial" });

test.describe("playground via the npm start relay", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    [start, noCors, other] = await Promise.all([
      startPlayground(),
      startSdkServer({ json: false }),
      startSdkServer({ json: true }),
    ]);
    page = await browser.newPage();
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await Promise.all([noCors?.close(), other?.close()]);
  });

  test("a server without CORS, added via the relay, answers a ping", async () => {
    await page.goto(start.url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("nocors");
    await page.getByLabel("URL", { exact: true }).fill(noCors.url);
    await page.getByTestId("server-relay").check();
    await page.getByTestId("server-add").click();
    const card = page.getByTestId("server-nocors");
    await expect(card.getByTestId("server-via-relay")).toHaveText("via relay");
    await card.getByTestId("server-ping").click();
    await expect(card.getByTestId("server-ping-result")).toContainText(/protocol .* \d+ tools/);
    // Direct, the same server is blocked by CORS, and the page says how to route it.
    await card.getByTestId("server-relay-toggle").click();
    await expect(card.getByTestId("server-via-relay")).toHaveCount(0);
    await card.getByTestId("server-ping").click();
    await expect(card.getByTestId("server-error")).toContainText("via the npm start relay");
  });

  test("from the page: no token 401, a server nobody added 403; it receives nothing", async () => {
    const seen = other.requests.length;
    const statuses = await page.evaluate(async (target) => {
      const relay = (await (await fetch("./playground.json")).json()).relay;
      const post = (path: string, headers: Record<string, string>, body: string) =>
        fetch(`${relay.url}${path}`, { method: "POST", headers, body }).then((r) => r.status);
      const json = { "content-type": "application/json" };
      const token = { ...json, "X-Skillmux-Relay-Token": relay.token };
      return [
        await post("/targets", json, JSON.stringify({ url: target })),
        await post("/t/unknown", token, "{}"),
        await post("/t/unknown", { ...token, "X-Skillmux-Relay-Token": "wrong" }, "{}"),
      ];
    }, other.url);
    expect(statuses).toEqual([401, 403, 401]);
    expect(other.requests.length).toBe(seen);
  });

  test("a pasted stdio server says a page cannot start processes, not the library's advice", async () => {
    // Without RELAY_STDIO=1, the stdio form says how to let the relay start them.
    await expect(page.getByTestId("stdio-off")).toContainText("RELAY_STDIO=1");
    await page.getByTestId("server-json").fill(
      JSON.stringify({ mcpServers: { local: { command: "node", args: ["server.js"] } } }),
    );
    await page.getByTestId("server-import").click();
    const card = page.getByTestId("server-local");
    await expect(card).toBeVisible();
    await card.getByTestId("server-ping").click();
    await expect(card.getByTestId("server-error")).toContainText("a page cannot start processes");
    await expect(card.getByTestId("server-error")).not.toContainText("@skillmux/core/stdio");
    await expect(card.getByTestId("server-error")).toContainText("RELAY_STDIO=1");
  });
});
