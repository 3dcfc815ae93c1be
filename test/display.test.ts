// Rich display in notebooks: every result a notebook user looks at carries a
// Symbol.for("Jupyter.display") method (non-enumerable: JSON and deep equality do not see it),
// and content from a remote server cannot inject HTML through it.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  createBuiltinSource,
  createCatalog,
  createMcpSkillSources,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  selectForRequest,
  type ServerRegistry,
} from "../lib/mod.ts";
import { parseSkill } from "../lib/skill/mod.ts";
import { serveSkills } from "../lib/server/mod.ts";
import type { SkillsServer } from "../lib/server/mod.ts";

const DISPLAY = Symbol.for("Jupyter.display");
type Bundle = { "text/plain": string; "text/html"?: string; "text/markdown"?: string };

/** The display bundle of `value`, asserting the method is there and hidden from enumeration. */
async function display(value: object): Promise<Bundle> {
  const method = (value as Record<symbol, unknown>)[DISPLAY];
  assert.equal(typeof method, "function", 'has a Symbol.for("Jupyter.display") method');
  assert.ok(!Object.keys(value).includes(String(DISPLAY)));
  const own = Object.getOwnPropertyDescriptor(value, DISPLAY);
  if (own !== undefined) assert.equal(own.enumerable, false);
  // Deno's kernel awaits the method; some renderers load on first display.
  const bundle = await (method as () => Bundle | Promise<Bundle>).call(value);
  assert.equal(typeof bundle["text/plain"], "string");
  assert.equal(typeof bundle["text/html"], "string");
  return bundle;
}

const HOSTILE = '<script>alert("x")</script>';
const HOSTILE_DOC = `---
name: hostile
description: Evil ${HOSTILE} skill. Use when <img src=x onerror=alert(1)> testing.
tags: ["<b>bold</b>"]
---
## Concepts
- A concept with <iframe src="//evil"></iframe> inside.

## Examples
### Run <script>1</script>
**Args:** \`--x "<svg onload=alert(2)>"\`
**Explanation:** It does </td></tr></table><script>3</script> things.
`;

let dir: string;
let server: SkillsServer;
let registry: ServerRegistry;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillmux-display-"));
  await writeFile(join(dir, "hostile.md"), HOSTILE_DOC);
  server = await serveSkills({ folder: dir });
  registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "remote", url: server.url });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** No markup from the skill survives as markup: every `<` of it is escaped. */
function assertInert(text: string | undefined): void {
  assert.ok(text !== undefined);
  assert.doesNotMatch(text, /<script|<img|<iframe|<svg|<b>|<\/td><\/tr><\/table>/i);
}

describe("a hostile skill from a remote server", () => {
  test("its resolution shows escaped in HTML and Markdown, verbatim in plain text", async () => {
    const resolver = createResolver({
      sources: [await createMcpSkillSources(registry), createBuiltinSource()],
    });
    const hit = await resolver.resolve("hostile");
    assert.equal(hit.source, "mcp:remote");
    const bundle = await display(hit);
    assertInert(bundle["text/html"]);
    assertInert(bundle["text/markdown"]);
    assert.match(
      bundle["text/html"]!,
      /Evil &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; skill/,
    );
    assert.match(bundle["text/plain"], /Evil <script>alert\("x"\)<\/script> skill/);
    assert.match(bundle["text/plain"], /from mcp:remote/);
    // The skill inside shows the same way, and JSON does not see the method.
    assertInert((await display(hit.skill))["text/html"]);
    assert.deepEqual(JSON.parse(JSON.stringify(hit.skill)), { ...hit.skill });
    const listing = await resolver.list();
    const rows = await display(listing);
    assertInert(rows["text/html"]);
    assertInert(rows["text/markdown"]);
    assert.match(rows["text/plain"], /hostile\s+mcp:remote/);
  });

  test("pings, catalog, selection and prompt escape it too", async () => {
    const pings = await registry.ping();
    const ping = await display(pings);
    assert.match(ping["text/plain"], /1 of 1 servers answered/);
    assert.match(ping["text/html"]!, /<td>remote<\/td><td>ok<\/td>/);
    const catalog = await createCatalog({
      resolver: createResolver({ sources: [await createMcpSkillSources(registry)] }),
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    try {
      const shown = await display(catalog);
      assertInert(shown["text/html"]);
      assertInert(shown["text/markdown"]);
      // The skills server offers search_skills, get_skill and read_skill_file (issue 42).
      assert.match(shown["text/plain"], /^Catalog: 1 skills, 3 MCP tools/);
      const request = "run the hostile testing skill";
      const selection = await selectForRequest(catalog, request);
      assert.equal(selection.via, "keyword");
      const chosen = await display(selection);
      assertInert(chosen["text/html"]);
      assert.match(chosen["text/plain"], /Selection via keyword/);
      const prompt = await assemblePrompt({ request, selection, catalog, connect: false });
      try {
        const assembled = await display(prompt);
        assertInert(assembled["text/html"]);
        assert.match(assembled["text/html"]!, /&lt;script&gt;/);
        assert.match(assembled["text/markdown"]!, /```\n/);
      } finally {
        await prompt.session.close();
      }
    } finally {
      catalog.dispose();
    }
  });
});

test("a parsed skill displays as text, HTML and Markdown; deep equality ignores the method", async () => {
  const { skill } = await parseSkill(
    "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n## Examples\n### Say hi\n" +
      "**Args:** `hi`\n**Explanation:** Greets.\n",
  );
  const bundle = await display(skill);
  assert.match(bundle["text/plain"], /^Skill demo: Demo skill\. Use when testing\./);
  assert.match(bundle["text/html"]!, /<td>Say hi<\/td><td>demo hi<\/td>/);
  assert.match(bundle["text/markdown"]!, /\| Say hi \| demo hi \|/);
  assert.deepEqual(skill, JSON.parse(JSON.stringify(skill)));
});
