// Task-augmented tool calls (MCP Tasks, 2025-11-25) in the playground, against server-everything's
// simulate-research-query (taskSupport "required"): the task's status is shown as it changes, the
// result when it completes, and Cancel sends tasks/cancel and shows the server's "cancelled";
// nothing is polled once the task ended.
import { expect, type Page, type Request, test } from "@playwright/test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let everything: TestServer;
let page: Page;
const sent: Request[] = [];
const posted = (method: string) =>
  sent.filter((r) => r.postData()?.includes(`"method":"${method}"`)).length;

test.describe.configure({ mode: "serial" });

test.describe("playground task-augmented tool calls", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [start, everything] = await Promise.all([startPlayground(), startEverything("streamableHttp")]);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on("request", (request) => sent.push(request));
    await page.goto(start.url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("everything");
    await page.getByLabel("URL", { exact: true }).fill(everything.url);
    await page.getByTestId("server-add").click();
    await expect(page.getByTestId("server-everything")).toBeVisible();
    await page.getByTestId("tab-tools").click();
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await everything?.close();
  });

  test("status as it changes, then the result; quiet once it completed", async () => {
    // The research task runs about 5 s unloaded; with the unit suites beside it (CI) it has taken
    // long enough, with the quiet window after it, to pass Playwright's 30 s default.
    test.setTimeout(90_000);
    const tool = page.getByTestId("tool-everything-simulate-research-query");
    await expect(tool.locator("..").getByTestId("tool-task-badge")).toHaveText("task required");
    await tool.click();
    await page.getByLabel(/^topic/).fill("long reads");
    await page.getByTestId("tool-call").click();
    const status = page.getByTestId("tool-task-status");
    await expect(status).toHaveText("working", { timeout: 15_000 });
    await expect(page.getByTestId("tool-task")).toContainText(/Task \S+: working/);
    await axe(page, "a running task");
    await expect(page.getByTestId("tool-result")).toContainText("Research Report: long reads", {
      timeout: 30_000,
    });
    await expect(status).toHaveText("completed");
    const log = await page.getByTestId("tool-task-log").locator("li").allTextContents();
    // The server spends 1 s in each of four stages and suggests 1 s polls: a loaded machine may
    // poll past the first stage, so any stage's message shows the status line was followed.
    const stage =
      /working · (Gathering sources|Analyzing content|Synthesizing findings|Generating report)/;
    expect(log.some((line) => stage.test(line)), log.join(" | ")).toBe(true);
    expect(log.at(-1)).toMatch(/completed/);
    expect(posted("tasks/get")).toBeGreaterThan(0);
    expect(posted("tasks/result")).toBe(1);
    // Nothing more for five of the server's 1 s poll intervals.
    const before = sent.length;
    await page.waitForTimeout(5_000);
    expect(sent.slice(before).map((r) => r.postData())).toEqual([]);
  });

  test("Cancel sends tasks/cancel and shows the server's cancelled status", async () => {
    await page.getByLabel(/^topic/).fill("cancel me");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-task-status")).toHaveText("working", { timeout: 15_000 });
    await page.getByTestId("tool-cancel").click();
    await expect(page.getByTestId("tool-error")).toContainText("tasks/cancel sent for task");
    await expect(page.getByTestId("tool-task-status")).toHaveText("cancelled", { timeout: 10_000 });
    expect(posted("tasks/cancel")).toBe(1);
    await expect(page.getByTestId("tool-result")).toHaveCount(0);
  });
});
