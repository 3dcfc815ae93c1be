// The first view's chunks are named in index.html (modulepreload), so the browser fetches them at
// once instead of discovering them in waves; the tokenizer tables are not among them and do not
// load until the first listed skill. (Timings are measured by bench/playground.ts, not here.)
import { expect, test } from "@playwright/test";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;

test.describe("playground first load", () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    start = await startPlayground({ SKILLS_FOLDER: "examples/team-skills" });
  });
  test.afterAll(() => start?.stop());

  test("every chunk fetched until the first listed skill is preloaded by index.html", async ({ page }) => {
    const chunks: string[] = [];
    page.on("request", (r) => {
      // JavaScript chunks only: the skill texts are a JSON asset (…/x.json also starts "x.js").
      const at = /\/assets\/([^/?]+\.js)(?:$|\?)/.exec(r.url());
      if (at) chunks.push(at[1]);
    });
    await page.goto(start.url);
    await expect(page.getByTestId("skill-list").locator("li").first()).toBeVisible({
      timeout: 30_000,
    });
    const html = await (await page.request.get(start.url)).text();
    const entry = /<script type="module"[^>]*src="\.\/assets\/([^"]+)"/.exec(html)![1];
    const preloaded = [...html.matchAll(/rel="modulepreload"[^>]*href="\.\/assets\/([^"]+)"/g)]
      .map((m) => m[1]);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.filter((c) => c !== entry && !preloaded.includes(c))).toEqual([]);
    expect(chunks.some((c) => c.startsWith("o200k"))).toBe(false);
    expect(preloaded.some((c) => c.startsWith("o200k"))).toBe(false);
  });
});
