// The selection view says why nothing was selected when nothing fits, and lists the entries
// held for approval with why they wait and which approved source answers meanwhile (`npm start`
// serves every built-in over MCP here: those remote skills are new, so held, and the built-ins
// stand in for them). Its token counts are the library's exact o200k counts, from the
// tokenizer chunk the build ships, with no console error on the way.
import { expect, type Page, test } from "@playwright/test";
import { estimateTokens } from "../../lib/catalog/build/tokens.ts";
import { countO200kTokens } from "../../lib/tokenizer/mod.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
let page: Page;
/** Console errors and uncaught exceptions of the page since it loaded. */
const problems: string[] = [];
/** Modules the page asked for that did not answer 200 as JavaScript (or JSON, for .json). */
const badChunks: string[] = [];
const scripts: string[] = [];

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
    page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
    page.on("pageerror", (e) => void problems.push(String(e)));
    page.on("response", (r) => {
      const type = r.headers()["content-type"] ?? "";
      if (r.request().resourceType() !== "script") return;
      scripts.push(r.url());
      const json = r.url().endsWith(".json") && /json/.test(type);
      if (!r.ok() || !(/javascript/.test(type) || json)) {
        badChunks.push(`${r.status()} ${type} ${r.url()}`);
      }
    });
    await page.goto(start.url);
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0", { timeout: 60_000 });
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
  });

  test("the catalog's and the prompt's token counts are exact, and no chunk is missing", async () => {
    await expect(page.getByTestId("catalog-tokens-kind")).toHaveText("(o200k, exact)");
    const listing = await page.getByTestId("catalog").locator("pre").textContent() ?? "";
    expect(listing.length).toBeGreaterThan(1_000);
    const shown = Number(
      (await page.getByTestId("catalog-tokens").textContent())!.replace(/,/g, ""),
    );
    expect(shown).toBe(countO200kTokens(listing));
    await select("Sort and index a BAM file with samtools");
    const system = await page.getByTestId("prompt-text").textContent() ?? "";
    const promptTokens = page.getByTestId("prompt-tokens");
    await expect(promptTokens).toHaveText(countO200kTokens(system).toLocaleString("en-US"));
    // The tokenizer came as the build's own o200k chunk (the view asked for it, it was there).
    expect(scripts.filter((u) => /\/assets\/o200k-[\w-]+\.js$/.test(u))).toHaveLength(1);
    expect(badChunks).toEqual([]);
    expect(problems).toEqual([]);
  });

  test("where the tokenizer chunk cannot load, the count is the estimate and says so", async ({ browser }) => {
    const other = await browser.newPage();
    try {
      await other.route(/\/assets\/o200k-[\w-]+\.js$/, (route) => route.abort());
      await other.goto(start.url);
      await other.getByTestId("tab-prompt").click();
      await expect(other.getByTestId("catalog-tokens-kind")).toHaveText("(estimate)", {
        timeout: 60_000,
      });
      await expect(other.getByTestId("catalog").locator("summary")).toContainText(
        /Compact catalog: ≈ [\d,]+ tokens \(estimate\)/,
      );
      const listing = await other.getByTestId("catalog").locator("pre").textContent() ?? "";
      const shown = Number(
        (await other.getByTestId("catalog-tokens").textContent())!.replace(/,/g, ""),
      );
      expect(shown).toBe(estimateTokens(listing));
      expect(shown).toBeGreaterThan(countO200kTokens(listing));
    } finally {
      await other.close();
    }
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
