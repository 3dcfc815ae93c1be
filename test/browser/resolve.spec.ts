// The isomorphic entry "." in real Chromium: zero-config resolution over IndexedDB and
// the built-ins, and the skill parser on the browser build of `yaml` and WebCrypto.
import { createHash } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { serveBundle, type ServedBundle } from "./_serve.ts";
import type * as Skillmux from "../../lib/mod.ts";
import type * as Resolve from "../../lib/resolve/mod.ts";
import type { parseSkill, renderSkill } from "../../lib/skill/mod.ts";
import type { createIndexedDbStorage } from "../../lib/storage/indexed_db.ts";

type Api = typeof Skillmux & typeof Resolve & {
  parseSkill: typeof parseSkill;
  renderSkill: typeof renderSkill;
  createIndexedDbStorage: typeof createIndexedDbStorage;
};
type PageGlobals = typeof globalThis & { __skillmux: Api };

let served: ServedBundle;
let page: Page;

const doc = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n## Concepts\n\n- One.\n`;

test.describe("resolver in Chromium", () => {
  test.beforeAll(async ({ browser }) => {
    served = await serveBundle("test/browser/_resolve_page.ts", {
      title: "resolve",
      splitting: true,
    });
    page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => (globalThis as PageGlobals).__skillmux !== undefined);
  });

  test.afterAll(async () => {
    await page?.close();
    await served?.close();
  });

  test("feature detection picks IndexedDB, then the built-ins; no folders", async () => {
    const found = await page.evaluate(async () => {
      const { createDefaultSources, defaultSkillFolders } = (globalThis as PageGlobals).__skillmux;
      return {
        labels: (await createDefaultSources({ dbName: "labels" })).flat().map((s) => s.label),
        folders: (await defaultSkillFolders()) ?? null,
      };
    });
    expect(found).toEqual({ labels: ["user", "builtin"], folders: null });
  });

  test("a user skill in IndexedDB beats the built-in; others come from the built-ins", async () => {
    const dbName = `resolve-${Date.now()}`;
    const found = await page.evaluate(async ({ dbName, text }) => {
      const api = (globalThis as PageGlobals).__skillmux;
      const store = api.createIndexedDbStorage({ dbName });
      await store.set("skills/samtools.md", text);
      await store.dispose?.();
      const mine = await api.resolveSkill("samtools", { dbName });
      const bwa = await api.resolveSkill("bwa", { dbName });
      const { skills } = await api.listSkills({ dbName });
      return {
        mine: [mine.source, mine.location, mine.skill.description],
        bwa: [bwa.source, bwa.skill.examples.length >= 5],
        samtoolsRow: skills.find((s) => s.name === "samtools"),
        count: skills.length,
      };
    }, { dbName, text: doc("samtools", "Browser notes. Use when sorting in a page.") });
    expect(found.mine).toEqual([
      "user",
      "skills/samtools.md",
      "Browser notes. Use when sorting in a page.",
    ]);
    expect(found.bwa).toEqual(["builtin", true]);
    expect(found.samtoolsRow?.shadows).toEqual(["builtin"]);
    expect(found.count).toBeGreaterThanOrEqual(16);
  });

  test("invalid content in IndexedDB is skipped with a diagnostic", async () => {
    const dbName = `invalid-${Date.now()}`;
    const found = await page.evaluate(async (dbName) => {
      const api = (globalThis as PageGlobals).__skillmux;
      const store = api.createIndexedDbStorage({ dbName });
      await store.set("skills/fastp.md", "---\nname: fastp\n---\nno description\n");
      await store.dispose?.();
      const hit = await api.resolveSkill("fastp", { dbName });
      return [hit.source, hit.diagnostics.map((d) => [d.source, d.problem])];
    }, dbName);
    expect(found).toEqual(["builtin", [["user", "invalid"]]]);
  });

  test("bad names are refused in the browser too", async () => {
    const message = await page.evaluate(() =>
      (globalThis as PageGlobals).__skillmux.resolveSkill("../etc/passwd").catch((e: Error) =>
        e.name
      )
    );
    expect(message).toBe("InvalidSkillNameError");
  });

  test("every built-in parses strictly with the browser build of yaml; digests match Node's", async () => {
    const found = await page.evaluate(async () => {
      const api = (globalThis as PageGlobals).__skillmux;
      const out: Array<[string, string, number]> = [];
      for (const name of await api.builtinSkillNames()) {
        const hit = await api.resolveSkill(name);
        const reparsed = await api.parseSkill(api.renderSkill(hit.skill), { strict: true });
        out.push([name, hit.skill.digest, reparsed.skill.examples.length]);
      }
      return out;
    });
    const { BUILTIN_SKILLS } = await import("../../lib/resolve/_builtin_skills.ts");
    expect(found.map(([name]) => name)).toEqual(Object.keys(BUILTIN_SKILLS).sort());
    for (const [name, digest, examples] of found) {
      const sha = createHash("sha256").update(BUILTIN_SKILLS[name], "utf8").digest("hex");
      expect(digest, name).toBe(`sha256:${sha}`);
      expect(examples, name).toBeGreaterThanOrEqual(5);
    }
  });
});
