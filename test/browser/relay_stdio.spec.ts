// Two stdio servers from npm (run by npx, as people add them) pasted at once go green on their
// first try, with every view's sessions opened at once, and end with nothing left (npx's
// grandchildren included). A stdio server added in the page runs through `RELAY_STDIO=1 npm start`'s relay: labelled
// "stdio via relay", its tools listed and called (progress on the call, roots asked during it),
// and its process ends when the person removes it (two servers with the same command are two
// registrations: removing one leaves the other's processes). Started without RELAY_STDIO, the page says
// how to turn it on and the relay starts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { expect, type Page, test } from "@playwright/test";
import { type RunningPlayground, startPlayground } from "./_playground.ts";

const EVERYTHING = resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
// An extra argument server-everything ignores: it tells this run's children from any other.
const MARK = `--skillmux-test-${process.pid}-${Date.now()}`;

/** How many processes run with MARK on their command line (Linux /proc). */
function children(): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(MARK)) count++;
    } catch { /* ended meanwhile */ }
  }
  return count;
}

let start: RunningPlayground;
let page: Page;

test.describe.configure({ mode: "serial" });

test.describe("a stdio server through the npm start relay", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    start = await startPlayground({ RELAY_STDIO: "1" });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(start.url);
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
  });

  test("two stdio servers from npm, pasted at once, go green on their first try", async () => {
    test.setTimeout(120_000);
    await page.getByTestId("tab-servers").click();
    await expect(page.getByTestId("stdio-name")).toBeVisible(); // the page knows the relay starts them
    const memoryFile = resolve(`test-results/memory-${process.pid}.jsonl`);
    await page.getByTestId("server-json").fill(JSON.stringify({
      mcpServers: {
        everything: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-everything", "stdio", MARK],
        },
        memory: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-memory", MARK],
          env: { MEMORY_FILE_PATH: memoryFile },
        },
      },
    }));
    await page.getByTestId("server-import").click();
    await expect(page.getByTestId("import-command")).toHaveCount(2);
    await page.getByTestId("server-import").click(); // "Start these and import"
    const expected = { everything: /everything.* 19 tools/, memory: /memory.* 9 tools/ };
    // Each was registered with the relay first, which answered once a process was ready; the
    // discovery that followed found it up: no error, the last check ok.
    for (const name of Object.keys(expected)) {
      const card = page.getByTestId(`server-${name}`);
      await expect(card).toContainText("last check: ok", { timeout: 45_000 });
      await expect(card.getByTestId("server-error")).toHaveCount(0);
    }
    // Both pages' views open their sessions at once (Tools lists every server in parallel):
    // each gets a process the relay started ahead, and none is reported down.
    await page.getByTestId("tab-tools").click();
    await expect(page.getByTestId("tools-everything").locator("li")).toHaveCount(19, {
      timeout: 30_000,
    });
    await expect(page.getByTestId("tools-memory").locator("li")).toHaveCount(9, {
      timeout: 30_000,
    });
    await expect(page.locator('[data-testid^="tools-error-"]')).toHaveCount(0);
    await page.getByTestId("tab-servers").click();
    for (const [name, result] of Object.entries(expected)) {
      const card = page.getByTestId(`server-${name}`);
      await expect(card.getByTestId("server-error")).toHaveCount(0);
      await card.getByTestId("server-ping").click(); // once: no retry loop
      await expect(card.getByTestId("server-ping-result")).toContainText(result, {
        timeout: 30_000,
      });
    }
    for (const name of Object.keys(expected)) {
      await page.getByTestId(`server-${name}`).getByTestId("server-remove").click();
    }
    await expect.poll(children, { timeout: 10_000 }).toBe(0);
  });

  test("added by command, labelled, listed and pinged; its tools are called", async () => {
    test.setTimeout(120_000);
    await page.getByTestId("tab-servers").click();
    await page.getByTestId("stdio-name").fill("everything");
    await page.getByTestId("stdio-command").fill(`node "${EVERYTHING}" stdio ${MARK}`);
    await page.getByTestId("stdio-add").click();
    const card = page.getByTestId("server-everything");
    await expect(card.getByTestId("server-via-relay")).toHaveText("stdio via relay");
    await expect(card.getByTestId("server-command")).toContainText(`stdio ${MARK}`);
    // Added once the relay had a process of it ready: the first ping answers.
    await expect(card).toContainText("last check: ok", { timeout: 45_000 });
    await card.getByTestId("server-ping").click();
    await expect(card.getByTestId("server-ping-result")).toContainText(/everything.* 19 tools/);
    expect(children()).toBeGreaterThan(0);

    await page.getByTestId("tab-tools").click();
    await page.getByTestId("tool-everything-echo").click();
    await page.getByLabel(/^message/).fill("hello over stdio");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText("hello over stdio");

    await page.getByTestId("tool-everything-trigger-long-running-operation").click();
    await page.getByLabel(/^duration/).fill("2");
    await page.getByLabel(/^steps/).fill("2");
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-progress")).toContainText(/1 \/ 2/);
    await expect(page.getByTestId("tool-result")).toContainText(/completed/i);

    // The server asks the page for its roots during the call (a server→client request).
    await page.getByTestId("tool-everything-get-roots-list").click();
    await page.getByTestId("tool-call").click();
    await expect(page.getByTestId("tool-result")).toContainText(/roots/i);
  });

  test("removing it ends its processes", async () => {
    await page.getByTestId("tab-servers").click();
    await page.getByTestId("server-everything").getByTestId("server-remove").click();
    await expect(page.getByTestId("server-everything")).toHaveCount(0);
    await expect.poll(children, { timeout: 10_000 }).toBe(0);
  });

  test("two servers with the same command run apart: removing one leaves the other", async () => {
    test.setTimeout(120_000);
    await page.getByTestId("tab-servers").click();
    for (const name of ["one", "two"]) {
      await page.getByTestId("stdio-name").fill(name);
      await page.getByTestId("stdio-command").fill(`node "${EVERYTHING}" stdio ${MARK}`);
      await page.getByTestId("stdio-add").click();
      const card = page.getByTestId(`server-${name}`);
      await expect(card).toContainText("last check: ok", { timeout: 45_000 });
      await card.getByTestId("server-ping").click();
      await expect(card.getByTestId("server-ping-result")).toContainText(/19 tools/);
    }
    const both = children();
    await page.getByTestId("server-one").getByTestId("server-remove").click();
    await expect.poll(children, { timeout: 10_000 }).toBeLessThan(both);
    // Had they shared one registration, removing "one" would have ended "two"'s route as well.
    expect(children()).toBeGreaterThan(0);
    const two = page.getByTestId("server-two");
    await two.getByTestId("server-ping").click();
    await expect(two.getByTestId("server-ping-result")).toContainText(/19 tools/);
    await two.getByTestId("server-remove").click();
    await expect.poll(children, { timeout: 10_000 }).toBe(0);
  });

  test("the page's own token cannot start a command from another Origin", async ({ browser }) => {
    const relay = await page.evaluate(async () =>
      (await (await fetch("./playground.json")).json()).relay
    );
    const other = await browser.newPage();
    try {
      await other.goto("about:blank");
      const status = await other.evaluate(async ({ relay, mark }) => {
        try {
          const r = await fetch(`${relay.url}/stdio`, {
            method: "POST",
            headers: { "content-type": "application/json", "X-Skillmux-Relay-Token": relay.token },
            body: JSON.stringify({ command: "node", args: ["-e", "setTimeout(()=>{},9e3)", mark] }),
          });
          return r.status;
        } catch {
          return "blocked";
        }
      }, { relay, mark: MARK });
      // The preflight from another Origin is refused, so the POST is never sent.
      expect(status).toBe("blocked");
      expect(children()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
