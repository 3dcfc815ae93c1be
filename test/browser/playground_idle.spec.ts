// The playground is quiet when idle: with server-everything and the skills server `npm start`
// registers, each view, once loaded, sends no request while nothing changes (the "Request →
// prompt" view used to rebuild its catalog in a loop); and it ends its MCP sessions (HTTP
// DELETE) when a server is removed and when the page goes away. Requests are counted as
// Chromium sends them.
import { expect, type Page, type Request, test } from "@playwright/test";
import {
  type SdkServer,
  startEverything,
  startSdkServer,
  type TestServer,
} from "../mcp/_servers.ts";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

/** How long a loaded view is watched for requests. */
const IDLE_MS = 6_000;

let start: RunningPlayground;
let everything: TestServer;
/** A server with sessions that records every HTTP request it receives. */
let recording: SdkServer;
let page: Page;
const sent: Request[] = [];

/** Wait until no request has started for `quietMs` (the view finished loading), at most 30 s. */
async function settle(quietMs = 1_500): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen = -1;
  while (Date.now() < deadline) {
    if (sent.length === seen) return;
    seen = sent.length;
    await page.waitForTimeout(quietMs);
  }
  throw new Error(`still sending after 30 s: ${sent.slice(-5).map(describe).join(", ")}`);
}

function describe(request: Request): string {
  return `${request.method()} ${request.url()} ${request.postData()?.slice(0, 60) ?? ""}`;
}

async function addServer(name: string, url: string): Promise<void> {
  await page.getByTestId("tab-servers").click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByTestId("server-add").click();
  await expect(page.getByTestId(`server-${name}`)).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test.describe("playground when idle", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [start, everything, recording] = await Promise.all([
      startPlayground(),
      startEverything("streamableHttp"),
      startSdkServer({ stateful: true, cors: true }),
    ]);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on("request", (request) => sent.push(request));
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await Promise.all([everything?.close(), recording?.close()]);
  });

  test("no view sends a request while nothing changes", async () => {
    test.setTimeout(180_000);
    await page.goto(start.url);
    await expect(page.getByTestId("skill-samtools")).toBeVisible();
    await addServer("everything", everything.url);
    const views = [
      "skills",
      "tools",
      "resources",
      "prompts",
      "prompt",
      "approvals",
      "activity",
      "settings",
      "servers",
    ];
    const noisy: string[] = [];
    for (const view of views) {
      await page.getByTestId(`tab-${view}`).click();
      if (view === "tools") await expect(page.getByTestId("tool-everything-echo")).toBeVisible();
      if (view === "prompt") await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0");
      await settle();
      const before = sent.length;
      await page.waitForTimeout(IDLE_MS);
      const during = sent.slice(before);
      if (during.length > 0) {
        noisy.push(
          `${view}: ${during.length} requests, e.g. ${during.slice(0, 3).map(describe).join("; ")}`,
        );
      }
    }
    expect(noisy).toEqual([]);
  });

  test("removing a server ends its session with DELETE", async () => {
    // The same server under a second URL, so its requests are told apart.
    const second = `${everything.url}?as=second`;
    await addServer("second", second);
    await page.getByTestId("tab-tools").click();
    await expect(page.getByTestId("tool-second-echo")).toBeVisible();
    await settle(500);
    await page.getByTestId("tab-servers").click();
    const before = sent.length;
    await page.getByTestId("server-second").getByTestId("server-remove").click();
    await expect(page.getByTestId("server-second")).toHaveCount(0);
    await expect.poll(() => sent.slice(before).filter((r) => r.method() === "DELETE").length)
      .toBeGreaterThan(0);
    const deletes = sent.slice(before).filter((r) => r.method() === "DELETE");
    const ended = deletes.filter((r) => r.url() === second);
    expect(ended.length, deletes.map(describe).join("; ")).toBeGreaterThan(0);
    expect(ended.every((r) => r.headers()["mcp-session-id"])).toBe(true);
  });

  test("leaving the page ends its sessions with DELETE", async () => {
    // Seen by the server: Chromium's request events stop at the navigation.
    if (page.url() !== start.url) await page.goto(start.url);
    await addServer("recording", recording.url);
    await page.getByTestId("tab-tools").click();
    await expect(page.getByTestId("tool-recording-echo")).toBeVisible();
    await settle(500);
    const before = recording.requests.length;
    await page.goto("about:blank");
    await expect.poll(() =>
      recording.requests.slice(before).filter((r) => r.method === "DELETE").length
    )
      .toBeGreaterThan(0);
  });
});
