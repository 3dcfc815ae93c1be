// The playground in real Chromium: `scripts/start.ts` (what `npm start` runs) builds it, serves it
// and a skills server; the test adds server-everything (streamableHttp), a server without CORS and
// an unreachable one, and drives every view through its labelled controls.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page, test } from "@playwright/test";
import {
  type SdkServer,
  startEverything,
  startSdkServer,
  type TestServer,
} from "../mcp/_servers.ts";
import { deadUrl } from "../_closed_port.ts";

const SHOTS = "test-results/playground";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let start: ChildProcess;
let url: string;
let everything: TestServer;
let noCors: SdkServer;
let nested: SdkServer;
let page: Page;

async function startPlayground(): Promise<string> {
  start = spawn("node", ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, PORT: "0", SKILLS_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no URL:\n${output}`)),
      90_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /skillmux playground: (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    start.stdout!.on("data", read);
    start.stderr!.on("data", read);
    start.once("exit", (code) => reject(new Error(`start exited ${code}:\n${output}`)));
  });
}

async function axe(view: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const result = await (globalThis as unknown as {
      axe: {
        run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>;
      };
    }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad, `axe on ${view}`).toEqual([]);
}

async function addServer(name: string, serverUrl: string): Promise<void> {
  await page.getByTestId("tab-servers").click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("URL", { exact: true }).fill(serverUrl);
  await page.getByTestId("server-add").click();
}

test.describe.configure({ mode: "serial" });

test.describe("playground", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    [url, everything, noCors, nested] = await Promise.all([
      startPlayground(),
      startEverything("streamableHttp"),
      startSdkServer({ json: true }),
      startSdkServer({ json: true, cors: true, nested: true }),
    ]);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  test.afterAll(async () => {
    await page?.close();
    start?.kill("SIGTERM");
    await Promise.all([everything?.close(), noCors?.close(), nested?.close()]);
  });

  test("first load lists the skills of the server npm start registered", async () => {
    await page.goto(url);
    // The skills server serves the built-ins, and its tier ranks above the page's own built-ins.
    const samtools = page.getByTestId("skill-samtools");
    await expect(samtools.getByTestId("skill-badge")).toHaveText("mcp:skills");
    await expect(samtools.getByTestId("skill-shadows")).toHaveText("shadows builtin");
    await page.getByTestId("tab-servers").click();
    await expect(page.getByTestId("server-skills")).toBeVisible();
    await page.getByTestId("server-skills").getByTestId("server-ping").click();
    await expect(page.getByTestId("server-skills").getByTestId("server-ping-result")).toContainText(
      /skillmux .* · \d+ ms · [1-9]\d* skills · \d+ resources · 2 tools/,
    );
  });

  test("adds server-everything; an invalid URL and a blocked header are refused in the form", async () => {
    await addServer("bad", "not a url");
    await expect(page.getByTestId("server-form-error")).toContainText("Invalid URL");
    await page.getByLabel("Custom headers").fill("Cookie: a=b");
    await addServer("bad", everything.url);
    await expect(page.getByTestId("server-form-error")).toContainText(/Refused.*Cookie/i);
    await page.getByLabel("Custom headers").fill("");
    await addServer("everything", everything.url);
    await expect(page.getByTestId("server-everything")).toBeVisible();
    await page.getByTestId("server-everything").getByTestId("server-ping").click();
    await expect(page.getByTestId("server-everything").getByTestId("server-ping-result"))
      .toContainText("protocol");
    await page.screenshot({ path: `${SHOTS}/servers.png`, fullPage: true });
    await axe("servers");
  });

  test("an unreachable server and a server without CORS each say why; the others keep working", async () => {
    await addServer("gone", await deadUrl());
    await expect(page.getByTestId("server-form-error")).toContainText(
      "Connection refused or unreachable",
    );
    await addServer("nocors", noCors.url);
    await expect(page.getByTestId("server-form-error")).toContainText("CORS blocked");
    await expect(page.getByTestId("server-form-error")).toContainText(
      "Access-Control-Expose-Headers: Mcp-Session-Id",
    );
    await page.getByTestId("server-everything").getByTestId("server-ping").click();
    await expect(page.getByTestId("server-everything").getByTestId("server-ping-result"))
      .toBeVisible();
  });

  test("skills carry their badges; a user skill overrides a built-in at once", async () => {
    await page.getByTestId("tab-skills").click();
    const bwa = page.getByTestId("skill-bwa");
    await expect(bwa.getByTestId("skill-badge")).toHaveText("mcp:skills");
    await bwa.getByRole("button", { name: "Show bwa" }).click();
    await expect(page.getByTestId("skill-rendered")).not.toBeEmpty();
    await page.getByTestId("skill-edit").click();
    const editor = page.getByLabel(/User skill/);
    const text = await editor.inputValue();
    await editor.fill(text.replace(/^description: .*$/m, "description: x"));
    await expect(page.getByTestId("skill-lint")).toContainText("description");
    await editor.fill(
      text.replace(
        /^description: .*$/m,
        "description: My own BWA notes. Use when aligning reads in the lab.",
      ),
    );
    await page.getByTestId("skill-save").click();
    await expect(bwa.getByTestId("skill-badge")).toHaveText("user");
    await expect(bwa.getByTestId("skill-shadows")).toHaveText("shadows mcp:skills, builtin");
    await page.screenshot({ path: `${SHOTS}/skills.png`, fullPage: true });
    await axe("skills");
  });

  test("calls echo, an enum + boolean tool and a nested-schema tool through the generated form", async () => {
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-everything-echo").click();
    await page.getByLabel(/^message/).fill("hello from the form");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("hello from the form");
    await page.getByTestId("tool-everything-get-annotated-message").click();
    await page.getByLabel(/^messageType/).selectOption("error");
    await page.getByLabel(/^includeImage/).check();
    await page.getByTestId("tool-mode").click();
    await expect(page.getByTestId("tool-json")).toHaveValue(/"includeImage": true/);
    await page.getByTestId("tool-mode").click();
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result").locator("img")).toBeVisible();
    await addServer("sdk", nested.url);
    await expect(page.getByTestId("server-sdk")).toBeVisible();
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-sdk-plan").click();
    await page.getByLabel("id *").fill("S1");
    await page.getByTestId("add-args.sample.reads").click();
    await page.getByLabel("reads 1").fill("S1_R1.fq.gz");
    await page.getByLabel("mode").selectOption("Exact");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-structured")).toContainText('"reads": [');
    const sent = JSON.parse(await page.getByTestId("tool-structured").innerText());
    expect(sent).toEqual({
      sample: { id: "S1", reads: ["S1_R1.fq.gz"], paired: true },
      threads: 4,
      mode: "exact",
    });
    await page.screenshot({ path: `${SHOTS}/tools.png`, fullPage: true });
    await axe("tools");
  });

  test("a request selects the expected skill and shows the prompt", async () => {
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0");
    await page.getByLabel("Request", { exact: true }).fill(
      "Sort and index a BAM file with samtools",
    );
    await page.getByTestId("request-run").click();
    await expect(page.getByTestId("selected-skills")).toContainText("samtools");
    await expect(page.getByTestId("prompt-text")).toContainText("samtools");
    await page.screenshot({ path: `${SHOTS}/prompt.png`, fullPage: true });
    await axe("prompt");
  });

  test("activity lists the JSON-RPC exchanges", async () => {
    await page.getByTestId("tab-activity").click();
    await page.getByTestId("activity-clear").click();
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-everything-get-sum").click();
    await page.getByLabel(/^a /).fill("2");
    await page.getByLabel(/^b /).fill("3");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("5");
    await page.getByTestId("tab-activity").click();
    const row = page.getByTestId("activity-row").filter({ hasText: "tools/call" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("· 200 ·");
    await row.locator("summary").click();
    await expect(row).toContainText('"name":"get-sum"');
    await page.screenshot({ path: `${SHOTS}/activity.png`, fullPage: true });
    await axe("activity");
  });

  test("a reload keeps servers, settings and user skills; 375 px wide works", async () => {
    await page.getByTestId("tab-settings").click();
    await page.getByLabel("Model", { exact: true }).fill("gpt-test");
    await page.getByTestId("settings-save").click();
    await axe("settings");
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(page.getByTestId("skill-bwa").getByTestId("skill-badge")).toHaveText("user");
    await page.screenshot({ path: `${SHOTS}/skills-375.png`, fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await page.getByTestId("tab-servers").click();
    await expect(page.getByTestId("server-everything")).toBeVisible();
    await page.getByTestId("tab-settings").click();
    await expect(page.getByLabel("Model", { exact: true })).toHaveValue("gpt-test");
  });

  test("a ?server= deep link adds a server only after the user confirms", async () => {
    await page.goto(`${url}?server=${encodeURIComponent(everything.url)}`);
    await expect(page.getByTestId("deeplink")).toContainText(everything.url);
    await page.getByTestId("deeplink-accept").click();
    await expect(page.getByLabel("URL", { exact: true })).toHaveValue(everything.url);
  });
});
