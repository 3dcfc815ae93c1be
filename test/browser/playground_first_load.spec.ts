// The first view lists the built-ins from the build's small index: what a fresh page fetches until
// the first listed skill is at most 150 KiB gzip (issue 20), the built-in texts and the library's
// full summaries are not among it, and a built-in's body loads when it is opened.
import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;
const KIB = 1024;

test.describe("playground first load", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    start = await startPlayground({ SKILLS_FOLDER: "examples/team-skills" });
  });
  test.afterAll(() => start?.stop());

  test("≤ 150 KiB gzip until the first listed skill, without the texts; a body loads when opened", async ({ page }) => {
    const fetched = new Map<string, Promise<number>>();
    page.on("response", (r) => {
      const url = new URL(r.url());
      if (url.origin !== new URL(start.url).origin || url.pathname === "/playground.json") return;
      fetched.set(url.pathname, r.body().then((b) => gzipSync(b, { level: 9 }).length));
    });
    await page.goto(start.url);
    await expect(page.getByTestId("skill-list").locator("li").first()).toBeVisible({
      timeout: 30_000,
    });
    const names = [...fetched.keys()];
    const bytes = (await Promise.all(fetched.values())).reduce((a, b) => a + b, 0);
    expect(names.filter((n) => /_builtin_(skills|summaries)/.test(n))).toEqual([]);
    expect(names.filter((n) => /\/index-[\w-]+\.js$/.test(n)).length).toBeGreaterThan(0);
    expect(bytes, `${(bytes / KIB).toFixed(1)} KiB gzip: ${names.join(", ")}`).toBeLessThanOrEqual(
      150 * KIB,
    );

    // Built-ins are listed (badged builtin, with their descriptions) before any text is loaded.
    const bwa = page.getByTestId("skill-bwa");
    await expect(bwa.getByTestId("skill-badge")).toHaveText("builtin");
    await expect(bwa).toContainText("Burrows-Wheeler");

    const texts = page.waitForResponse((r) => /_builtin_skills[\w-]*\.json$/.test(r.url()));
    await bwa.getByRole("button", { name: "Show bwa" }).click();
    await texts;
    await expect(page.getByTestId("skill-title")).toContainText("bwa");
    await expect(page.getByTestId("skill-rendered")).toContainText("bwa mem");
  });
});
