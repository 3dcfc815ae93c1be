// `npm start` as is serves the example team folder (examples/team-skills), so the page shows the
// priority chain honestly: the team's samtools convention from mcp:skills shadowing the built-in,
// a team-only skill from mcp:skills, and every other skill as builtin.
import { expect, test } from "@playwright/test";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

let start: RunningPlayground;

test.describe("npm start's example team folder", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    start = await startPlayground({ SKILLS_FOLDER: "" });
  });
  test.afterAll(() => start?.stop());

  test("team skills come from mcp:skills, the rest are builtin", async ({ page }) => {
    await page.goto(start.url);
    const samtools = page.getByTestId("skill-samtools");
    await expect(samtools.getByTestId("skill-badge")).toHaveText("mcp:skills");
    await expect(samtools.getByTestId("skill-shadows")).toHaveText("shadows builtin");
    await expect(page.getByTestId("skill-lab-data-layout").getByTestId("skill-badge"))
      .toHaveText("mcp:skills");
    await expect(page.getByTestId("skill-bwa").getByTestId("skill-badge")).toHaveText("builtin");
    await expect(page.getByTestId("skill-bwa").getByTestId("skill-shadows")).toHaveCount(0);
  });
});
