import { expect, type Page, test } from "@playwright/test";
import { storageConformanceCases } from "../storage/_conformance.ts";
import { serveBundle, type ServedBundle } from "./_serve.ts";
import type { CaseResult } from "./_storage_page.ts";

type PageGlobals = typeof globalThis & {
  __results?: CaseResult[];
  __skillmux: {
    createIndexedDbStorage(options?: { dbName?: string }): {
      get(key: string): Promise<string | undefined>;
      set(key: string, value: string): Promise<void>;
      keys(): Promise<string[]>;
      dispose?(): Promise<void>;
    };
  };
};

let served: ServedBundle;
let page: Page;
let results: CaseResult[];

test.describe("IndexedDB storage in Chromium", () => {
  test.beforeAll(async ({ browser }) => {
    served = await serveBundle("test/browser/_storage_page.ts", { title: "storage" });
    page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => (globalThis as PageGlobals).__results !== undefined);
    results = await page.evaluate(() => (globalThis as PageGlobals).__results!);
  });

  test.afterAll(async () => {
    await page?.close();
    await served?.close();
  });

  test("every conformance case ran", () => {
    expect(results.map((result) => result.name)).toEqual(
      storageConformanceCases.map((c) => c.name),
    );
  });

  for (const { name } of storageConformanceCases) {
    test(`conformance: ${name}`, () => {
      const result = results.find((r) => r.name === name);
      expect(result, "case result").toBeDefined();
      expect(result!.error).toBeUndefined();
      expect(result!.ok).toBe(true);
    });
  }

  test("data survives a page reload (persisted in IndexedDB)", async () => {
    const dbName = `persist-${Date.now()}`;
    await page.evaluate(async (dbName) => {
      const store = (globalThis as PageGlobals).__skillmux.createIndexedDbStorage({ dbName });
      await store.set("skills/ünïcødé-技能.md", "# survives");
      await store.dispose?.();
    }, dbName);
    await page.reload();
    await page.waitForFunction(() => (globalThis as PageGlobals).__skillmux !== undefined);
    const after = await page.evaluate(async (dbName) => {
      const store = (globalThis as PageGlobals).__skillmux.createIndexedDbStorage({ dbName });
      const found = { keys: await store.keys(), value: await store.get("skills/ünïcødé-技能.md") };
      await store.dispose?.();
      return found;
    }, dbName);
    expect(after).toEqual({ keys: ["skills/ünïcødé-技能.md"], value: "# survives" });
  });
});
