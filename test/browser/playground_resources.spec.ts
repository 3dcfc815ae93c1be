// Resources a page at a time (the server's nextCursor), subscriptions whose
// notifications/resources/updated show in the Resources view, prompt arguments completed by the
// server (completion/complete), and the Activity log downloaded as JSON: against server-everything
// and an SDK server that pages its lists. The Resources and Prompts pickers show the server the
// person just added.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  type SdkServer,
  startEverything,
  startSdkServer,
  type TestServer,
} from "../mcp/_servers.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let everything: TestServer;
let paged: SdkServer;
let page: Page;

async function add(name: string, url: string): Promise<void> {
  await page.getByTestId("tab-servers").click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByTestId("server-add").click();
  await expect(page.getByTestId(`server-${name}`)).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test.describe("playground resources, prompts and the activity export", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const skills = Object.fromEntries(
      ["alpha", "beta", "gamma", "delta", "epsilon"].map((n) => [n, `description: ${n} skill`]),
    );
    [start, everything, paged] = await Promise.all([
      startPlayground(),
      startEverything("streamableHttp"),
      startSdkServer({ json: true, cors: true, pageSize: 2, skills }),
    ]);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(start.url);
    await add("everything", everything.url);
    await add("paged", paged.url);
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await Promise.all([everything?.close(), paged?.close()]);
  });

  test("the Resources and Prompts pickers show the server just added", async () => {
    // npm start registered "skills" first; "everything", then "paged" were added.
    await page.getByTestId("tab-resources").click();
    await expect(page.getByTestId("resources-server")).toHaveValue("paged");
    await page.getByTestId("tab-prompts").click();
    await expect(page.getByTestId("prompts-server")).toHaveValue("paged");
    await page.getByTestId("prompts-server").selectOption("skills");
    const late = await startSdkServer({ json: true, cors: true });
    try {
      await add("late", late.url);
      for (const view of ["prompts", "resources"]) {
        await page.getByTestId(`tab-${view}`).click();
        await expect(page.getByTestId(`${view}-server`)).toHaveValue("late");
      }
      await page.getByTestId("resources-list").click();
      // "late" serves no resources (everything and paged do): the list came from it.
      await expect(page.getByTestId("resources-count")).toContainText("0 of 0 resources");
      await page.getByTestId("tab-servers").click();
      await page.getByTestId("server-late").getByTestId("server-remove").click();
      await expect(page.getByTestId("server-late")).toHaveCount(0);
      await page.getByTestId("tab-resources").click();
      await expect(page.getByTestId("resources-server")).toHaveValue("paged");
    } finally {
      await late.close();
    }
  });

  test("resources come a page at a time while the server has a nextCursor", async () => {
    await page.getByTestId("tab-resources").click();
    await page.getByLabel("Server").selectOption("paged");
    await page.getByTestId("resources-list").click();
    const count = page.getByTestId("resources-count");
    await expect(count).toContainText("2 of 2 resources loaded, more on the server");
    await page.getByTestId("resources-more").click();
    await expect(count).toContainText("4 of 4 resources loaded, more on the server");
    await page.getByTestId("resources-more").click();
    await expect(count).toContainText(/^5 of 5 resources · /);
    await expect(page.getByTestId("resources-more")).toHaveCount(0);
    await expect(page.getByTestId("resources")).toContainText("skill://epsilon");
  });

  test("a subscribed resource's updates show as the server sends them", async () => {
    await page.getByTestId("tab-resources").click();
    await page.getByLabel("Server").selectOption("everything");
    await page.getByTestId("resources-list").click();
    await expect(page.getByTestId("resources")).toContainText("demo://");
    await page.getByTestId("resources").getByRole("button").first().click();
    await expect(page.getByTestId("resource-text")).not.toBeEmpty();
    const uri = (await page.getByTestId("resources").locator("code").first().textContent())!;
    await page.getByTestId("resource-subscribe").click();
    await expect(page.getByTestId("resource-subscribe")).toHaveText("Unsubscribe");
    // server-everything sends updates for subscribed resources once this tool turns them on.
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-everything-toggle-subscriber-updates").click();
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("Started");
    await page.getByTestId("tab-resources").click();
    await page.getByLabel("Server").selectOption("everything");
    await expect(page.getByTestId("resource-updates")).toContainText(uri);
    await axe(page, "resources");
  });

  test("prompt arguments get the server's completions, the first value narrowing the second", async () => {
    await page.getByTestId("tab-prompts").click();
    await page.getByLabel("Server").selectOption("everything");
    await page.getByTestId("prompts-list").click();
    await page.getByTestId("prompt-completable-prompt").click();
    await page.getByLabel(/^department/).fill("E");
    await expect(page.getByTestId("parg-suggestions-department")).toHaveText(
      "Suggested: Engineering",
    );
    await page.getByLabel(/^department/).fill("Engineering");
    await page.getByLabel(/^name/).focus();
    await expect(page.getByTestId("parg-suggestions-name")).toHaveText(
      "Suggested: Alice, Bob, Charlie",
    );
    await page.getByLabel(/^name/).fill("Bob");
    await page.getByTestId("prompt-get").click();
    await expect(page.getByTestId("prompt-result")).toContainText("Bob");
    await axe(page, "prompts");
  });

  test("the activity log downloads as JSON, filters applied, bodies parsed", async () => {
    await page.getByTestId("tab-activity").click();
    await page.getByLabel("Method").selectOption("completion/complete");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("activity-export").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^skillmux-activity-.*\.json$/);
    const rows = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r: { method: string }) => r.method === "completion/complete")).toBe(true);
    expect(rows.at(-1).request.params.argument.name).toBe("name");
    expect(JSON.stringify(rows)).toContain("Charlie");
  });
});
