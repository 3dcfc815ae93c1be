// The playground in real Chromium: `scripts/start.ts` (what `npm start` runs) builds it, serves it
// and a skills server; the test adds server-everything (streamableHttp), a server without CORS and
// an unreachable one, and drives every view through its labelled controls. A local server speaking
// OpenAI chat completions and Anthropic Messages (with CORS, as the providers' browser access)
// stands in for the selection model set in Settings: its good answers, garbage, 500s and silence.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  type SdkServer,
  startEverything,
  startSdkServer,
  type TestServer,
} from "../mcp/_servers.ts";
import {
  anthropicAnswer,
  type LlmAnswer,
  type LlmRequest,
  openAiAnswer,
  startFakeLlm,
} from "../catalog/_servers.ts";
import { deadUrl } from "../_closed_port.ts";
import { axe as scan, type RunningPlayground, startPlayground } from "./_playground.ts";

const SHOTS = "test-results/playground";

let start: RunningPlayground;
let url: string;
let everything: TestServer;
let noCors: SdkServer;
let nested: SdkServer;
let page: Page;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let answer: (request: LlmRequest) => LlmAnswer | Promise<LlmAnswer> = () => openAiAnswer("{}");

/** The API key typed in Settings: it must reach the model server and nothing else. */
const KEY = "sk-play-7c1e5a90d3b24f68";

/** Scan the current view with axe: no serious or critical violation. */
function axe(view: string): Promise<void> {
  return scan(page, view);
}

/** Set the selection model in Settings through its labelled fields, and save. */
async function configureLlm(
  format: "none" | "openai" | "anthropic",
  { baseUrl = "", model = "", key = KEY, timeout = "10" } = {},
): Promise<void> {
  await page.getByTestId("tab-settings").click();
  await page.getByLabel("LLM for selection").selectOption(format);
  await page.getByLabel("Base URL").fill(baseUrl);
  await page.getByLabel("Model", { exact: true }).fill(model);
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("Timeout (seconds)").fill(timeout);
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-message")).toHaveText("Saved.");
}

/** Run "Select and assemble" for `request` on the Prompt view; resolves when it is done. */
async function selectFor(request: string): Promise<void> {
  await page.getByTestId("tab-prompt").click();
  await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0");
  await page.getByLabel("Request", { exact: true }).fill(request);
  await page.getByTestId("request-run").click();
  await expect(page.getByTestId("selection-via")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("request-run")).toBeEnabled();
  await expect(page.getByTestId("request-error")).toHaveCount(0);
}

/** A line of a built-in skill's body, as the skills server serves it. */
function bodyLine(skill: string): string {
  const text = readFileSync(`skills/${skill}.md`, "utf8");
  return /^## Concepts\n\n- (.+)$/m.exec(text)![1];
}

/** A selection answer in the JSON the selection prompt asks for. */
function selectionJson(skills: string[], tools: string[], reasoning: string): string {
  return JSON.stringify({ complexity: "simple", skills, tools, needs_external: false, reasoning });
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
    [start, everything, noCors, nested, llm] = await Promise.all([
      startPlayground(),
      startEverything("streamableHttp"),
      startSdkServer({ json: true }),
      startSdkServer({ json: true, cors: true, nested: true }),
      startFakeLlm((request) => answer(request), { cors: true }),
    ]);
    url = start.url;
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await Promise.all([everything?.close(), noCors?.close(), nested?.close(), llm?.close()]);
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
      /skillmux .* · \d+ ms · [1-9]\d* skills · \d+ resources · 3 tools/,
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

  test("remote skills and tools wait in Approvals; approved ones reach the prompt, rejected ones do not", async () => {
    // The library's defaults: nothing from an MCP server enters a prompt before a person says so.
    await page.getByTestId("tab-prompt").click();
    await expect(page.getByTestId("catalog-tokens")).not.toHaveText("0");
    const listing = page.getByTestId("catalog").locator("pre");
    // Nothing from the servers yet: no tool group, and the held mcp:skills samtools does not hide
    // the built-in one, which stands in for it until it is approved.
    await expect(listing).not.toContainText("MCP tools by server");
    await expect(listing).not.toContainText("(from mcp:skills)");
    await expect(listing).toContainText(/^samtools: /m);
    await expect(page.getByTestId("catalog-held")).toContainText(
      /[1-9]\d* remote tools and skills wait/,
    );
    await page.getByTestId("tab-approvals").click();
    const samtools = page.getByTestId("held-samtools");
    await expect(samtools).toContainText("mcp:skills");
    await expect(samtools.getByTestId("held-state")).toHaveText("new");
    await expect(page.getByTestId("held-everything__echo")).toContainText("mcp:everything");
    await page.getByLabel("Search held entries").fill("get-env");
    await page.getByTestId("held-everything__get-env").getByTestId("held-reject").click();
    await expect(page.getByTestId("approvals-rejected")).toContainText("Rejected (1)");
    await page.getByLabel("Search held entries").fill("");
    await page.screenshot({ path: `${SHOTS}/approvals.png` });
    await axe("approvals");
    await page.getByTestId("approve-all").click();
    await expect(page.getByTestId("approvals-count")).toContainText(/^0 waiting · 1 rejected/);
    await page.getByTestId("tab-prompt").click();
    await expect(listing).toContainText(/^samtools: .*\(from mcp:skills\)$/m);
    await expect(listing).toContainText("MCP tools by server");
    await expect(page.getByTestId("catalog-held")).toContainText(/^\s*1 remote/);
    await page.getByTestId("tab-approvals").click();
    await expect(page.getByTestId("approvals-rejected").getByTestId("held-everything__get-env"))
      .toHaveCount(1);
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

  test("an OpenAI-compatible model set in Settings selects; the prompt holds what it chose", async () => {
    const request = "Sort and index a BAM file with samtools";
    answer = () =>
      openAiAnswer(selectionJson(["fastqc"], ["everything__echo"], "The model's own pick."));
    llm.requests.length = 0;
    await configureLlm("openai", { baseUrl: `${llm.url}/v1`, model: "gpt-play" });
    await selectFor(request);
    // Keyword ranking would pick samtools for this request: fastqc can only come from the model.
    await expect(page.getByTestId("selection-via")).toHaveText("via LLM: openai gpt-play");
    await expect(page.getByTestId("selected-skills")).toHaveText("fastqc");
    await expect(page.getByTestId("selected-tools")).toHaveText("everything__echo");
    await expect(page.getByTestId("selection-reasoning")).toHaveText("Why: The model's own pick.");
    await expect(page.getByTestId("selection-fallback")).toHaveCount(0);
    await expect(page.getByTestId("prompt-text")).toContainText(bodyLine("fastqc"));
    await expect(page.getByTestId("prompt-text")).not.toContainText(bodyLine("samtools"));
    await expect(page.getByTestId("prompt-tools")).toContainText('"name": "everything__echo"');

    expect(llm.requests).toHaveLength(1);
    const [sent] = llm.requests;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.origin).toBe(new URL(url).origin);
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = sent.body as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe("gpt-play");
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const [system, user] = body.messages.map((m) => m.content);
    // The compact catalog: the skills server's skills and the tools. Counted exactly (o200k, the
    // build's tokenizer chunk) the whole catalog fits the selection's budget; the character
    // estimate the page counted with before (+32 %) left the least relevant entries out.
    expect(system).toContain("<catalog>");
    expect(system).toMatch(
      /^fastqc: Produces per-file quality control reports.*\(from mcp:skills\)$/m,
    );
    expect(system).toMatch(/^samtools: .*\(from mcp:skills\)$/m);
    expect(system).not.toMatch(/left out to fit the token budget/);
    expect(system).toMatch(/^vt: .*\(from mcp:skills\)$/m); // the last skill, alphabetically
    expect(user).toContain(request);
    await page.screenshot({ path: `${SHOTS}/prompt-llm.png`, fullPage: true });
    await axe("prompt, LLM selection");
  });

  test("an Anthropic Messages model: key, version and browser-access headers; its pick is used", async () => {
    const request = "Which regions of my BED file overlap the exons?";
    answer = () =>
      anthropicAnswer("```json\n" + selectionJson(["bedtools"], [], "Intervals.") + "\n```");
    llm.requests.length = 0;
    await configureLlm("anthropic", { baseUrl: llm.url, model: "claude-play" });
    await selectFor(request);
    await expect(page.getByTestId("selection-via")).toHaveText("via LLM: anthropic claude-play");
    await expect(page.getByTestId("selected-skills")).toHaveText("bedtools");
    await expect(page.getByTestId("prompt-text")).toContainText(bodyLine("bedtools"));

    expect(llm.requests).toHaveLength(1);
    const [sent] = llm.requests;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    const body = sent.body as {
      model: string;
      system: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.model).toBe("claude-play");
    expect(body.system).toMatch(/^bedtools: Performs genome arithmetic.*\(from mcp:skills\)$/m);
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].role).toBe("user");
    expect(body.messages[0].content).toContain(request);
  });

  test("garbage, a 500 or silence from the model: keyword ranking selects and says why", async () => {
    test.setTimeout(90_000); // five selections, each reloading the catalog, on a shared machine
    const request = "Sort and index a BAM file with samtools";
    const openai = { baseUrl: `${llm.url}/v1`, model: "gpt-play" };
    const fallsBack = async (why: RegExp) => {
      await expect(page.getByTestId("selection-via")).toHaveText("via keyword ranking");
      await expect(page.getByTestId("selection-fallback")).toContainText(why);
      await expect(page.getByTestId("selected-skills")).toContainText("samtools");
      await expect(page.getByTestId("prompt-text")).toContainText(bodyLine("samtools"));
    };

    answer = () => openAiAnswer("Sure! samtools sort, then samtools index.");
    await configureLlm("openai", openai);
    await selectFor(request);
    await fallsBack(/\(unusable\): The LLM's answer was unusable/);
    await axe("prompt, keyword fallback");

    answer = () => ({
      body: "<html>502 Bad Gateway</html>",
      headers: { "content-type": "text/html" },
    });
    await configureLlm("openai", openai);
    await selectFor(request);
    await fallsBack(/\(error\): The LLM failed: openai answered with something that is not JSON/);

    // The server echoes the key in its error: the page shows the reason, never the key.
    answer = () => ({
      status: 500,
      body: JSON.stringify({ error: { message: `overloaded for key ${KEY}` } }),
    });
    await configureLlm("openai", openai);
    await selectFor(request);
    await fallsBack(
      /\(error\): The LLM failed: openai answered HTTP 500: overloaded for key \[redacted\]/,
    );
    // The activity log keeps the LLM calls (the catalog loads push old rows out: look now).
    await page.getByTestId("tab-activity").click();
    const echoed = page.getByTestId("activity-row")
      .filter({ hasText: "LLM selection (gpt-play)" })
      .filter({ hasText: "overloaded for key [redacted]" });
    await expect(echoed.first()).toBeAttached();
    await echoed.first().locator("summary").click();
    await expect(echoed.first()).toContainText("· 500 ·");
    await expect(echoed.first()).toContainText('"model":"gpt-play"');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(KEY);

    answer = () => new Promise<LlmAnswer>(() => {}); // never answers
    await configureLlm("openai", { ...openai, timeout: "2" });
    const started = Date.now();
    await selectFor(request);
    await fallsBack(/\(timeout\): The LLM timed out: the LLM did not answer within 2000 ms/);
    expect(Date.now() - started).toBeLessThan(15_000);

    // Nothing broke: the model answers again and is used again.
    answer = () => openAiAnswer(selectionJson(["fastqc"], [], "Back."));
    await configureLlm("openai", openai);
    await selectFor(request);
    await expect(page.getByTestId("selection-via")).toHaveText("via LLM: openai gpt-play");
    await expect(page.getByTestId("selected-skills")).toHaveText("fastqc");
  });

  test("the API key is in no view's text or HTML, the activity log's included", async () => {
    // Every view with every <details> open: a few seconds each on a loaded machine.
    test.setTimeout(120_000);
    await page.getByTestId("tab-activity").click();
    const calls = page.getByTestId("activity-row").filter({ hasText: "LLM selection (gpt-play)" });
    await expect(calls.first()).toBeAttached();
    for (const tab of ["servers", "skills", "tools", "prompt", "activity", "settings"]) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.evaluate(() =>
        document.querySelectorAll("details").forEach((d) => (d.open = true))
      );
      const text = await page.evaluate(() => document.body.innerText);
      expect(text, `text of ${tab}`).not.toContain(KEY);
      expect(await page.content(), `HTML of ${tab}`).not.toContain(KEY);
    }
    // It is there, in the password field, for the user to change.
    await expect(page.getByLabel("API key")).toHaveValue(KEY);
    await expect(page.getByLabel("API key")).toHaveAttribute("type", "password");
    await axe("settings, LLM fields");
    await configureLlm("none", { key: "" });
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
