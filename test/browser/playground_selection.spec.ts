// The selection view says why nothing was selected when nothing fits, and lists the entries
// held for approval with why they wait and which approved source answers meanwhile (`npm start`
// serves every built-in over MCP here: those remote skills are new, so held, and the built-ins
// stand in for them).
import { expect, type Page, test } from "@playwright/test";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let page: Page;

async function select(request: string): Promise<void> {
  await page.getByLabel("Request", { exact: true }).fill(request);
  await page.getByTestId("request-run").click();
  await expect(page.getByTestId("selection")).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test.describe("playground selection view", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    start = await startPlayground();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(start.url);
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0", { timeout: 60_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
  });

  test("held entries are listed with why they wait and who answers meanwhile", async () => {
    await select("Sort and index a BAM file with samtools");
    await expect(page.getByTestId("selected-skills")).toContainText("samtools");
    const held = page.getByTestId("selection-held");
    await expect(held).toContainText(
      /Held for approval, never selected: \d+ \(\d+ fits? this request\)/,
    );
    await expect(held.getByTestId("held-samtools")).toHaveText(
      "samtools · skill from mcp:skills · new, never approved · fits this request · answered meanwhile by builtin",
    );
    await expect(page.getByTestId("selection-reason")).toHaveCount(0);
    await axe(page, "selection with held entries");
  });

  test("when nothing fits, nothing is selected and the view says why", async () => {
    await select("what's the weather in Paris tomorrow");
    await expect(page.getByTestId("selected-skills")).toHaveText("none");
    await expect(page.getByTestId("selected-tools")).toHaveText("none");
    await expect(page.getByTestId("selection-reason")).toContainText(
      /^Nothing selected: .*fits/,
    );
  });
});
