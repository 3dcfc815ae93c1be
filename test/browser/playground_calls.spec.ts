// Tool calls as an MCP practitioner makes them in the playground, against server-everything:
// the page declares sampling, elicitation and roots, so the tools that need them are listed and
// work (a form from `requestedSchema`, a sampling request answered by hand, the roots set in
// Settings, a URL opened only when https); long calls show progress, can be cancelled and obey
// the timeout setting; required fields are checked before anything is sent; tools can be
// searched and show their names with their titles. A picked tool's form is brought into view,
// and what a server asks during a call opens in a modal dialog, in view wherever the page was.
import { expect, type Page, type Request, test } from "@playwright/test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let everything: TestServer;
let page: Page;
const sent: Request[] = [];

async function pick(tool: string): Promise<void> {
  await page.getByTestId("tab-tools").click();
  await page.getByTestId(`tool-everything-${tool}`).click();
}

async function settings(fields: Record<string, string>): Promise<void> {
  await page.getByTestId("tab-settings").click();
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-message")).toHaveText("Saved.");
}

const calls = () => sent.filter((r) => r.postData()?.includes('"tools/call"')).length;

test.describe.configure({ mode: "serial" });

test.describe("playground tool calls", () => {
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
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await everything?.close();
  });

  test("tools that need sampling, elicitation or roots are listed; search narrows; names shown with titles", async () => {
    await page.getByTestId("tab-tools").click();
    const list = page.getByTestId("tools-everything");
    for (
      const tool of [
        "get-roots-list",
        "trigger-elicitation-request",
        "trigger-sampling-request",
        "trigger-url-elicitation",
      ]
    ) {
      await expect(list.getByTestId(`tool-everything-${tool}`)).toBeVisible();
    }
    // 12 plain tools, 4 that need these capabilities, the task tool, and the two "-async" tools,
    // listed because the library declares client-side tasks (2025-11-25) for the page's handlers.
    await expect(list.locator("li")).toHaveCount(19);
    await expect(list.getByText("trigger-long-running-operation", { exact: true })).toBeVisible();
    await page.getByLabel("Search tools").fill("sum");
    await expect(list.locator("li")).toHaveCount(1);
    await page.getByLabel("Search tools").fill("");
  });

  test("roots: the list set in Settings is what the server gets", async () => {
    await settings({
      "Roots shared with servers, one URI a line": "file:///data/project-a\nfile:///data/ref",
    });
    await pick("get-roots-list");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("file:///data/project-a");
    await expect(page.getByTestId("tool-result")).toContainText("file:///data/ref");
  });

  test("elicitation: a form from requestedSchema; its required field is checked; the answer reaches the tool", async () => {
    await pick("trigger-elicitation-request");
    await page.getByTestId("tool-call").click();
    const ask = page.getByTestId("ask-elicitation");
    await expect(ask).toContainText("Please provide inputs");
    await ask.getByTestId("ask-accept").click();
    await expect(ask.getByTestId("ask-error")).toContainText("Required: name");
    await ask.locator('input[data-testid$=".name"]').fill("Ada Lovelace");
    await axe(page, "elicitation form");
    await ask.getByTestId("ask-accept").click();
    await expect(ask).toHaveCount(0);
    await expect(page.getByTestId("tool-result")).toContainText("Ada Lovelace");
  });

  test("sampling: the request is shown and answered by hand", async () => {
    await pick("trigger-sampling-request");
    await page.getByLabel(/^prompt/).fill("Name a read aligner");
    await page.getByTestId("tool-call").click();
    const ask = page.getByTestId("ask-sampling");
    await expect(ask.getByTestId("ask-message")).toContainText("Name a read aligner");
    await ask.getByLabel("Your answer").fill("bwa mem, by hand");
    await ask.getByTestId("ask-send").click();
    await expect(page.getByTestId("tool-result")).toContainText("bwa mem, by hand");
  });

  test("a picked tool's form and the server's asks are in the viewport: asks in a modal dialog", async () => {
    await page.setViewportSize({ width: 1100, height: 500 });
    try {
      await page.getByTestId("tab-tools").click();
      await expect(page.getByTestId("tools-everything").locator("li")).toHaveCount(19);
      const toEnd = () => page.evaluate(() => globalThis.scrollTo(0, document.body.scrollHeight));
      await toEnd();
      expect(await page.evaluate(() => globalThis.scrollY)).toBeGreaterThan(500);
      await page.getByTestId("tool-everything-trigger-sampling-request").click();
      await expect(page.getByTestId("tool-title")).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId("tool-title")).toBeFocused();
      await expect(page.getByLabel(/^prompt/)).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId("tool-call")).toBeInViewport({ ratio: 1 });
      await page.getByLabel(/^prompt/).fill("Name a variant caller");
      await page.getByTestId("tool-call").click();
      await toEnd(); // wherever the page is, the ask is in the top layer
      const dialog = page.getByTestId("asks-dialog");
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
      const sampling = dialog.getByTestId("ask-sampling");
      await expect(sampling.getByTestId("ask-message")).toContainText("Name a variant caller");
      await expect(sampling.getByTestId("ask-send")).toBeInViewport({ ratio: 1 });
      await sampling.getByLabel("Your answer").fill("GATK");
      await sampling.getByTestId("ask-send").click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("tool-result")).toContainText("GATK");

      // Escape dismisses an elicitation: the tool hears "cancel".
      await toEnd();
      await page.getByTestId("tool-everything-trigger-elicitation-request").click();
      await expect(page.getByTestId("tool-call")).toBeInViewport({ ratio: 1 });
      await page.getByTestId("tool-call").click();
      const elicitation = dialog.getByTestId("ask-elicitation");
      await expect(elicitation).toBeInViewport();
      await expect(elicitation.getByTestId("ask-accept")).toBeInViewport({ ratio: 1 });
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("tool-result")).toContainText(/cancel/i);
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  });

  test("URL elicitation: an http URL is not opened; declining reaches the tool", async () => {
    await pick("trigger-url-elicitation");
    await page.getByLabel(/^url/).fill("http://example.test/consent");
    await page.getByLabel(/^message/).fill("Consent first");
    await page.getByTestId("tool-call").click();
    const ask = page.getByTestId("ask-elicitation");
    await expect(ask.getByTestId("ask-url")).toHaveText("http://example.test/consent");
    await expect(ask.getByTestId("ask-not-https")).toBeVisible();
    await expect(ask.getByTestId("ask-open")).toHaveCount(0);
    await ask.getByTestId("ask-decline").click();
    await expect(page.getByTestId("tool-result")).toContainText("declined");
  });

  test("a required field left empty is refused before anything is sent", async () => {
    await pick("get-sum");
    await page.getByLabel(/^b /).fill("3");
    const before = calls();
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-error")).toHaveText("Required, still empty: a");
    expect(calls()).toBe(before);
  });

  test("a long call shows progress and completes past the old 8 s limit", async () => {
    test.setTimeout(60_000);
    await pick("trigger-long-running-operation");
    await page.getByLabel(/^duration/).fill("10");
    await page.getByLabel(/^steps/).fill("5");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-progress")).toContainText(/[1-4] \/ 5 \(\d+ %\)/);
    await expect(page.getByTestId("tool-result")).toContainText("completed", { timeout: 20_000 });
  });

  test("Cancel stops a long call; the timeout setting bounds one", async () => {
    test.setTimeout(60_000);
    await pick("trigger-long-running-operation");
    await page.getByLabel(/^duration/).fill("20");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-progress")).toBeVisible();
    await page.getByTestId("tool-cancel").click();
    await expect(page.getByTestId("tool-error")).toContainText("Cancelled");
    await expect(page.getByTestId("tool-call")).toBeEnabled();
    await settings({ "Tool call time limit (seconds)": "2" });
    await pick("trigger-long-running-operation");
    await page.getByLabel(/^duration/).fill("6");
    const started = Date.now();
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-error")).toContainText("Timed out");
    expect(Date.now() - started).toBeLessThan(5_500);
    await settings({ "Tool call time limit (seconds)": "300" });
  });

  test("activity: event-stream answers shown; filter by server and method; one busy method cannot flood the log", async () => {
    await page.getByTestId("tab-activity").click();
    await page.getByTestId("activity-clear").click();
    await pick("get-sum");
    await page.getByLabel(/^a /).fill("2");
    await page.getByLabel(/^b /).fill("3");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("5");
    // The prompt view lists every skill of the skills server (from skills/list, bodies unread)
    // and reads only what it selects: no flood of resources/read.
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0");
    await page.getByTestId("tab-activity").click();
    await page.getByLabel("Method").selectOption("tools/call");
    const row = page.getByTestId("activity-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("stream");
    await row.locator("summary").click();
    await expect(row.getByTestId("activity-answer")).toContainText('"result"');
    await expect(row.getByTestId("activity-answer")).toContainText("The sum of 2 and 3 is 5");
    await page.getByLabel("Method").selectOption("");
    expect(await row.filter({ hasText: "resources/read" }).count()).toBeLessThanOrEqual(60);
    await page.getByLabel("Server").selectOption(new URL(everything.url).host);
    await expect(row.filter({ hasText: "resources/read" })).toHaveCount(0);
    await axe(page, "activity");
  });

  test("skills: search narrows the list; a clicked skill's detail is scrolled into view", async () => {
    await page.getByTestId("tab-skills").click();
    const list = page.getByTestId("skill-list");
    await expect(list.locator("li").nth(20)).toBeVisible();
    await page.getByLabel("Search skills").fill("samtools");
    await expect(page.getByTestId("skill-samtools")).toBeVisible();
    await expect(page.getByTestId("skill-kraken2")).toHaveCount(0);
    await page.getByLabel("Search skills").fill("");
    const last = list.locator("li").last();
    await last.scrollIntoViewIfNeeded();
    await last.getByRole("button").first().click();
    await expect(page.getByTestId("skill-rendered")).not.toBeEmpty();
    await expect(page.getByTestId("skill-title")).toBeInViewport();
  });

  test("resources: list, read with a preview, and a template filled in", async () => {
    await page.getByTestId("tab-resources").click();
    await page.getByLabel("Server").selectOption("everything");
    await page.getByTestId("resources-list").click();
    await expect(page.getByTestId("resources-count")).toContainText(
      /[1-9]\d* of [1-9]\d* resources · [1-9] templates/,
    );
    await page.getByTestId("resources").getByRole("button").first().click();
    await expect(page.getByTestId("resource-text")).not.toBeEmpty();
    const template = page.getByTestId("template").filter({ hasText: "dynamic/blob" });
    await template.getByLabel("resourceId").fill("7");
    await template.getByRole("button", { name: "Read" }).click();
    await expect(page.getByTestId("resource-contents")).toContainText(
      "demo://resource/dynamic/blob/7",
    );
    await axe(page, "resources");
  });

  test("prompts: list, an argument form with its required field checked, get", async () => {
    await page.getByTestId("tab-prompts").click();
    await page.getByLabel("Server").selectOption("everything");
    await page.getByTestId("prompts-list").click();
    await page.getByTestId("prompt-args-prompt").click();
    await page.getByTestId("prompt-get").click();
    await expect(page.getByTestId("prompts-error")).toHaveText("Required, still empty: city");
    await page.getByLabel("city *").fill("Lyon");
    await page.getByTestId("prompt-get").click();
    await expect(page.getByTestId("prompt-result")).toContainText("What's weather in Lyon?");
    await axe(page, "prompts");
  });
});
