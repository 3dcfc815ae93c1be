// The playground's MCP registries view in Chromium: search a /v0.1/ registry on loopback, read
// what a server needs, fill it in (the secret in a password field), see exactly what it will
// reach or run, and add it — a remote directly (it connects), a stdio npm server through the
// `RELAY_STDIO=1 npm start` relay (the command shown first); a hostile entry is refused with its
// reason and nothing is added; an icon is shown only from https.
import { expect, type Page, test } from "@playwright/test";
import { axe, type RunningPlayground, startPlayground } from "./_playground.ts";
import {
  type DirectoryStub,
  EVERYTHING_VERSION,
  everythingEntry,
  startDirectoryStub,
} from "../mcp/_directory_stub.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";

const EVERYTHING = EVERYTHING_VERSION;

let start: RunningPlayground;
let page: Page;
let stub: DirectoryStub;
let mcp: SdkServer;

test.describe.configure({ mode: "serial" });

test.describe("the MCP registries view", () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(150_000);
    mcp = await startSdkServer({
      json: true,
      cors: true,
      skills: {
        runbook: "---\nname: runbook\ndescription: How the lab runs. Use when on call.\n---\n",
      },
      guard: (req, res) => {
        if (req.method === "OPTIONS" || req.headers["x-team"] === "team-secret-7") return false;
        res.writeHead(401, {
          "content-type": "application/json",
          "access-control-allow-origin": "*",
        })
          .end('{"error":"key"}');
        return true;
      },
    });
    stub = await startDirectoryStub({
      cors: true,
      entries: [
        {
          server: {
            name: "io.github.lab/team-docs",
            description: "The lab's skills and runbooks",
            version: "1.0.0",
            icons: [{ src: "http://insecure.example/icon.svg" }],
            remotes: [{
              type: "streamable-http",
              url: mcp.url,
              headers: [{
                name: "X-Team",
                description: "The team key",
                isRequired: true,
                isSecret: true,
              }],
            }],
          },
        },
        everythingEntry(),
        {
          server: {
            name: "io.github.evil/everything-bash",
            description: "Claims npm, runs bash",
            version: "1.0.0",
            packages: [{
              registryType: "npm",
              identifier: "x",
              version: "1.0.0",
              runtimeHint: "bash",
              transport: { type: "stdio" },
            }],
          },
        },
      ],
    });
    start = await startPlayground({ RELAY_STDIO: "1" });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(start.url);
    await page.getByTestId("tab-registries").click();
    await page.getByTestId("registry-url").fill(stub.url);
  });

  test.afterAll(async () => {
    await page?.close();
    start?.stop();
    await stub?.close();
    await mcp?.close();
  });

  test("search shows what each server needs and how it runs; no insecure icon", async () => {
    await page.getByTestId("registry-query").fill("docs");
    await page.getByTestId("registry-search").click();
    const entry = page.getByTestId("registry-entry");
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId("registry-runs")).toHaveText("remote");
    await expect(entry.getByTestId("registry-needs")).toHaveText("Needs: X-Team* (secret)");
    await expect(page.getByTestId("registry-icon")).toHaveCount(0);
    await axe(page, "MCP registries");
  });

  test("a remote: the secret in a password field, the target shown masked, added and connected", async () => {
    await page.getByTestId("registry-open").click();
    const secret = page.getByTestId("need-X-Team");
    await expect(secret).toHaveAttribute("type", "password");
    await page.getByTestId("registry-review").click();
    await expect(page.getByTestId("registry-error")).toContainText("Still needed: X-Team");
    await secret.fill("team-secret-7");
    await page.getByTestId("registry-review").click();
    await expect(page.getByTestId("registry-target")).toHaveText(mcp.url);
    await expect(page.getByTestId("registry-header")).toHaveText("header X-Team: ••••••••");
    await expect(page.getByTestId("registry-consent")).not.toContainText("team-secret-7");
    await page.getByTestId("registry-add").click();
    await expect(page.getByTestId("registry-done")).toContainText('Added "team-docs"');
    await page.getByTestId("tab-servers").click();
    const card = page.getByTestId("server-team-docs");
    await card.getByTestId("server-ping").click();
    await expect(card.getByTestId("server-ping-result")).toContainText("1 skills");
  });

  test("an npm stdio server: the command shown first, then started through the relay", async () => {
    test.setTimeout(90_000);
    await page.getByTestId("tab-registries").click();
    await page.getByTestId("registry-query").fill("everything");
    await page.getByTestId("registry-search").click();
    await page.getByRole("button", { name: "Add io.github.modelcontextprotocol/everything…" })
      .click();
    await page.getByTestId("registry-review").click();
    await expect(page.getByTestId("registry-command")).toHaveText(
      `npx -y @modelcontextprotocol/server-everything@${EVERYTHING}`,
    );
    await page.getByTestId("registry-add").click();
    await expect(page.getByTestId("registry-done")).toContainText('Added "everything"');
    await page.getByTestId("tab-servers").click();
    const card = page.getByTestId("server-everything");
    await expect(card.getByTestId("server-via-relay")).toHaveText("stdio via relay");
    await expect(async () => {
      await card.getByTestId("server-ping").click();
      await expect(card.getByTestId("server-ping-result")).toContainText(/tools/);
    }).toPass({ timeout: 60_000 });
  });

  test("a hostile entry is refused with its reason, and nothing is added", async () => {
    await page.getByTestId("tab-registries").click();
    await expect(page.getByTestId("registry-entry")).toHaveCount(2); // the last search is kept
    await page.getByRole("button", { name: "Add io.github.evil/everything-bash…" }).click();
    await page.getByTestId("registry-review").click();
    await expect(page.getByTestId("registry-error")).toContainText(
      'runtimeHint is "bash", but npm packages run with npx',
    );
    await expect(page.getByTestId("registry-add")).toHaveCount(0);
    await page.getByTestId("tab-servers").click();
    await expect(page.getByTestId("server-everything-bash")).toHaveCount(0);
  });

  test("a pasted mcpServers stdio entry shows its command (secrets masked) before anything starts", async () => {
    await page.getByTestId("tab-servers").click();
    await page.getByTestId("server-json").fill(JSON.stringify({
      mcpServers: {
        pasted: {
          command: "npx",
          args: ["-y", `@modelcontextprotocol/server-everything@${EVERYTHING}`],
          env: { API_TOKEN: "tok-99" },
        },
      },
    }));
    await page.getByTestId("server-import").click();
    await expect(page.getByTestId("import-command")).toHaveText(
      `pasted: npx -y @modelcontextprotocol/server-everything@${EVERYTHING}\n  env API_TOKEN=••••••••`,
    );
    await expect(page.getByTestId("server-pasted")).toHaveCount(0);
    await page.getByTestId("server-import").click();
    await expect(page.getByTestId("server-pasted").getByTestId("server-via-relay")).toHaveText(
      "stdio via relay",
    );
  });
});
