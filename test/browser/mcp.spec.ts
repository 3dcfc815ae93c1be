// The MCP client in real Chromium, against the SDK's McpServer over real HTTP with CORS:
// stateless JSON, sessions with SSE answers, custom headers, and an MCP skill source.
import { expect, type Page, test } from "@playwright/test";
import { serveBundle, type ServedBundle } from "./_serve.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import type * as Skillmux from "../../lib/mod.ts";

type PageGlobals = typeof globalThis & { __skillmux: typeof Skillmux };

const SKILL =
  "---\nname: bwa\ndescription: BWA from a server. Use when aligning in a page.\n---\nBody\n";

let served: ServedBundle;
let page: Page;
let stateless: SdkServer;
let stateful: SdkServer;

test.describe("MCP client in Chromium", () => {
  test.beforeAll(async ({ browser }) => {
    [stateless, stateful] = await Promise.all([
      startSdkServer({ json: true, cors: true, skills: { bwa: SKILL } }),
      startSdkServer({ stateful: true, cors: true, skills: { bwa: SKILL } }),
    ]);
    served = await serveBundle("test/browser/_resolve_page.ts", {
      title: "mcp",
      splitting: true,
    });
    page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => (globalThis as PageGlobals).__skillmux !== undefined);
  });

  test.afterAll(async () => {
    await page?.close();
    await served?.close();
    await Promise.all([stateless?.close(), stateful?.close()]);
  });

  for (const kind of ["stateless JSON", "sessions with SSE answers"]) {
    test(`connect, list, call and read over ${kind}`, async () => {
      const url = kind === "stateless JSON" ? stateless.url : stateful.url;
      const found = await page.evaluate(async (url) => {
        const { connect } = (globalThis as PageGlobals).__skillmux;
        const client = await connect({ name: "page", url, headers: { "X-Team": "bio" } });
        const tools = (await client.listTools()).map((t) => t.name);
        const echoed = await client.callTool("echo", { text: "from chromium" });
        const [contents] = await client.readResource("skill://bwa");
        const result = {
          transport: client.transport,
          version: client.protocolVersion,
          tools,
          echoed: echoed.content,
          text: contents.text,
        };
        await client.close();
        return result;
      }, url);
      expect(found.transport).toBe("streamable-http");
      expect(found.version).toBe("2025-11-25");
      expect(found.tools.slice(0, 2)).toEqual(["echo", "add"]);
      expect(found.echoed).toEqual([{ type: "text", text: "from chromium" }]);
      expect(found.text).toBe(SKILL);
    });
  }

  test("the session id crosses CORS and DELETE ends the session", async () => {
    const before = stateful.requests.length;
    await page.evaluate(async (url) => {
      const client = await (globalThis as PageGlobals).__skillmux.connect({ name: "s", url });
      await client.ping();
      await client.close();
    }, stateful.url);
    const mine = stateful.requests.slice(before).filter((r) => r.method !== "OPTIONS");
    expect(mine.slice(1).every((r) => r.sessionId)).toBe(true);
    expect(mine.at(-1)?.method).toBe("DELETE");
  });

  test("a blocked header is refused in the page before any request", async () => {
    const before = stateless.requests.length;
    const name = await page.evaluate(async (url) => {
      const { connect } = (globalThis as PageGlobals).__skillmux;
      return await connect({ name: "x", url, headers: { Cookie: "a=b" } }).catch((e: Error) =>
        e.name
      );
    }, stateless.url);
    expect(name).toBe("PolicyError");
    expect(stateless.requests.length).toBe(before);
  });

  test("an MCP skill source resolves in the page", async () => {
    const found = await page.evaluate(async (url) => {
      const { createMcpSkillSource, createBuiltinSource, createResolver } =
        (globalThis as PageGlobals).__skillmux;
      const team = createMcpSkillSource({ name: "team", url });
      const hit = await createResolver({ sources: [[team], createBuiltinSource()] }).resolve("bwa");
      await team.dispose();
      return [hit.source, hit.skill.description];
    }, stateless.url);
    expect(found).toEqual(["mcp:team", "BWA from a server. Use when aligning in a page."]);
  });
});
