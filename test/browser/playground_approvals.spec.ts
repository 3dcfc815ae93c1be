// The rug-pull guard in the playground: a remote skill approved once and then changed by its
// server is held again, with the line diff of the change, until a person approves it again.
import { expect, type Page, test } from "@playwright/test";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";

const V1 =
  "---\nname: lab-notes\ndescription: Team lab notes. Use when preparing sequencing libraries.\n---\n\n" +
  "## Concepts\n\n- Quantify with Qubit before pooling.\n";
const V2 = V1.replace("Quantify with Qubit before pooling.", "Pool without quantifying.");

let start: RunningPlayground;
let team: SdkServer;
let page: Page;
/** What the server serves: read on every request, so the test can change it. */
const skills: Record<string, string> = { "lab-notes": V1 };

test.describe.configure({ mode: "serial" });

test.describe("playground approvals", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [start, team] = await Promise.all([
      startPlayground(),
      startSdkServer({ json: true, cors: true, skills }),
    ]);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await team?.close();
  });

  test("a changed remote skill is held again with its diff until approved again", async () => {
    test.setTimeout(90_000);
    await page.goto(start.url);
    await page.getByTestId("tab-servers").click();
    await page.getByLabel("Name", { exact: true }).fill("team");
    await page.getByLabel("URL", { exact: true }).fill(team.url);
    await page.getByTestId("server-add").click();
    await expect(page.getByTestId("server-team")).toBeVisible();
    await page.getByTestId("tab-approvals").click();
    const held = page.getByTestId("held-lab-notes");
    await expect(held.getByTestId("held-state")).toHaveText("new");
    await held.getByTestId("held-approve").click();
    await expect(held).toHaveCount(0);
    // The server changes the skill; a rebuild (here: disable and enable the server) sees it.
    skills["lab-notes"] = V2;
    await page.getByTestId("tab-servers").click();
    await page.getByTestId("server-team").getByTestId("server-toggle").click();
    await expect(page.getByTestId("server-team").getByTestId("server-state")).toHaveText(
      "disabled",
    );
    await page.getByTestId("server-team").getByTestId("server-toggle").click();
    await expect(page.getByTestId("server-team").getByTestId("server-state")).toHaveText("enabled");
    await page.getByTestId("tab-approvals").click();
    await expect(held.getByTestId("held-state")).toHaveText("changed since approved");
    await expect(held.getByTestId("held-diff")).toContainText(
      "- Quantify with Qubit before pooling.",
    );
    await expect(held.getByTestId("held-diff")).toContainText("Pool without quantifying.");
    await axe(page, "approvals with a diff");
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog").locator("pre")).not.toContainText("lab-notes");
    await page.getByTestId("tab-approvals").click();
    await held.getByTestId("held-approve").click();
    await expect(held).toHaveCount(0);
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog").locator("pre")).toContainText("lab-notes");
  });
});
