// Rules of catalog selection (issue 19), each held through the public API against real MCP
// servers on 127.0.0.1 and real catalogs: duplicate ids, shared bare names, exact ids, the
// answer cap, tie order of the keyword ranking, the token budget and loadSkill's digest check.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  type HostFunction,
  selectForRequest,
  type SelectModel,
} from "../../lib/mod.ts";
import { startToolServer, type TestTool } from "./_servers.ts";

const tool = (name: string, description: string): TestTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});

const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});

/** A model that always gives `answer`. */
const answering = (answer: unknown): SelectModel => () =>
  Promise.resolve(typeof answer === "string" ? answer : JSON.stringify(answer));

describe("ids the model names", () => {
  let web: Awaited<ReturnType<typeof startToolServer>>;
  let code: Awaited<ReturnType<typeof startToolServer>>;
  before(async () => {
    web = await startToolServer([
      tool("search", "Search the web"),
      tool("lookup", "Look a word up"),
      tool("fetch_page", "Fetch a page"),
    ]);
    code = await startToolServer([tool("search", "Search the code")]);
  });
  after(async () => {
    await web.close();
    await code.close();
  });

  async function build() {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "web", url: web.url });
    await registry.add({ name: "code", url: code.url });
    return await createCatalog({
      registry,
      functions: [fn("lookup", "Look a sample up by id")],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
  }

  test("an id the model names twice is selected once", async () => {
    const catalog = await build();
    try {
      const selection = await selectForRequest(catalog, "fetch the page", {
        llm: answering({ tools: ["web__fetch_page", "web__fetch_page", "fetch_page"] }),
        maxTools: 5,
      });
      assert.equal(selection.via, "llm");
      assert.deepEqual(selection.tools, ["web__fetch_page"]);
    } finally {
      catalog.dispose();
    }
  });

  test("a bare name two servers share is dropped with a diagnostic, not guessed", async () => {
    const catalog = await build();
    try {
      assert.ok(catalog.get("web__search") && catalog.get("code__search"));
      const selection = await selectForRequest(catalog, "search for it", {
        llm: answering({ tools: ["search", "web__fetch_page"] }),
      });
      assert.equal(selection.via, "llm");
      assert.deepEqual(selection.tools, ["web__fetch_page"]);
      assert.ok(
        selection.diagnostics.some((d) => /"search", which is not in the catalog; dropped/.test(d)),
        selection.diagnostics.join("\n"),
      );
    } finally {
      catalog.dispose();
    }
  });

  test("an exact catalog id (a host function) is never re-read as a tool's bare name", async () => {
    const catalog = await build();
    try {
      assert.equal(catalog.get("lookup")?.kind, "function");
      assert.equal(catalog.get("web__lookup")?.kind, "tool");
      const selection = await selectForRequest(catalog, "look up sample S1", {
        llm: answering({ tools: ["lookup"] }),
      });
      assert.equal(selection.via, "llm");
      assert.deepEqual(selection.tools, ["lookup"]);
      assert.deepEqual(selection.diagnostics, []);
    } finally {
      catalog.dispose();
    }
  });
});

test("the answer cap is maxAnswerChars, not the request cap: 150,000 characters are read", async () => {
  const catalog = await createCatalog({ functions: [fn("notify_user", "Send a message")] });
  const answer = JSON.stringify({ tools: ["notify_user"] }) + " ".repeat(150_000);
  assert.ok(answer.length > 150_000);
  const selection = await selectForRequest(catalog, "tell the user", { llm: answering(answer) });
  assert.equal(selection.via, "llm", JSON.stringify(selection.fallback));
  assert.deepEqual(selection.tools, ["notify_user"]);
});

test("equal keyword scores are ordered by id; the top 3 are the first 3 of the full ranking", async () => {
  // 40 functions with the same description: every hit ties. Registered in a shuffled order.
  const names = Array.from({ length: 40 }, (_, i) => `convert_${String(i).padStart(2, "0")}`);
  const shuffled = names.map((n, i) => ({ n, k: (i * 17) % 40 })).sort((a, b) => a.k - b.k);
  const catalog = await createCatalog({
    functions: shuffled.map(({ n }) => fn(n, "Convert temperature units")),
  });
  const full = catalog.rank("temperature", { limit: Infinity });
  assert.equal(full.length, 40);
  assert.equal(new Set(full.map((r) => r.score)).size, 1, "every score ties");
  assert.deepEqual(full.map((r) => r.entry.id), names);
  const top = catalog.rank("temperature", { limit: 3 });
  assert.deepEqual(top.map((r) => r.entry.id), names.slice(0, 3));
});
