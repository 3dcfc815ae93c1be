// An unnamed server gets the same name in the playground as in the CLI (`skillmux mcp add <url>`):
// the library's nameFromUrl, `<host>-<port>`, e.g. 127.0.0.1-3002 (not 127-0-0-1).
import { expect, test } from "@playwright/test";
import { nameFromUrl } from "../../lib/mcp/mod.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground | undefined;
let server: SdkServer | undefined;

test.afterAll(async () => {
  start?.stop();
  await server?.close();
});

test("a server added without a name is named host-port, as the CLI names it", async ({ page }) => {
  test.setTimeout(180_000);
  [start, server] = await Promise.all([
    startPlayground(),
    startSdkServer({ json: true, cors: true }),
  ]);
  const port = new URL(server.url).port;
  const expected = `127.0.0.1-${port}`;
  expect(nameFromUrl(server.url)).toBe(expected);
  await page.goto(start.url);
  await page.getByTestId("tab-servers").click();
  await page.getByLabel("URL", { exact: true }).fill(server.url);
  await page.getByTestId("server-add").click();
  await expect(page.getByTestId(`server-${expected}`)).toBeVisible({ timeout: 20_000 });
});
