// Catalog ids (lib/catalog/build/_ids.ts): a valid name is its own id; a clash or an invalid name gets
// a stable hash, salted when even that is taken; a long name keeps 55 characters and 8 hex digits,
// also through a real catalog of a host function and a skill of one name; two servers' tools of
// one name get distinct, valid ids that map back; host function names are checked and kept.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
} from "../../../lib/mod.ts";
import { IdTable, shortHash } from "../../../lib/catalog/build/_ids.ts";
import { startToolServer } from "../_servers.ts";
import { fn, queryTool as tool, skillDoc } from "../_entries.ts";

describe("IdTable", () => {
  test("a valid name is its own id; a clash or an invalid name gets a stable hash", () => {
    const ids = new IdTable();
    assert.equal(ids.claim("bwa", "skill:builtin:bwa"), "bwa");
    const second = ids.claim("bwa", "skill:user:bwa");
    assert.equal(second, `bwa_${shortHash("skill:user:bwa#0")}`);
    const third = ids.claim("bwa", "skill:community:bwa");
    assert.equal(third, `bwa_${shortHash("skill:community:bwa#0")}`);
    // The salt counts up when even the salted id is taken.
    const again = ids.claim("bwa", "skill:user:bwa");
    assert.equal(again, `bwa_${shortHash("skill:user:bwa#1")}`);
    const long = "x".repeat(70);
    assert.equal(ids.claim(long, "tool:mcp:a:x"), `${"x".repeat(55)}_${shortHash("tool:mcp:a:x")}`);
    assert.equal(
      ids.claim(long, "tool:mcp:b:x"),
      `${"x".repeat(55)}_${shortHash("tool:mcp:b:x")}`,
    );
    assert.equal(ids.claim("a b.c", "f"), `a_b_c_${shortHash("f")}`);
    assert.equal(ids.claim("a b.c", "g"), `a_b_c_${shortHash("g")}`);
    assert.equal(shortHash(""), "811c9dc5");
  });

  test("an id made unique keeps 55 characters of a long name and 8 hex digits", async () => {
    // A host function and a user skill of the same 58-character name: the skill's id is made
    // unique. (This name's disambiguator happens to start with a 0, which must stay.)
    const name = "sort-and-index-aligned-reads-of-a-bam-file-by-coordinate-3";
    const catalog = await createCatalog({
      functions: [{ name, description: "Sorts a BAM file", handler: () => "sorted" }],
      resolver: createResolver({
        sources: [createStorageSource({
          label: "user",
          storage: createMemoryStorage({
            initial: { [`${name}.md`]: skillDoc(name, "Notes on sorting BAM files.") },
          }),
        })],
      }),
    });
    try {
      const ids = catalog.entries.map((e) => `${e.kind} ${e.id}`).sort();
      assert.equal(ids.length, 2);
      assert.equal(ids[0], `function ${name}`);
      assert.match(ids[1], new RegExp(`^skill ${name.slice(0, 55)}_[0-9a-f]{8}$`));
    } finally {
      catalog.dispose();
    }
  });
});

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("ids in a catalog of servers and functions", () => {
  let a: Awaited<ReturnType<typeof startToolServer>>;
  let b: Awaited<ReturnType<typeof startToolServer>>;
  before(async () => {
    a = await startToolServer([tool("search", "Search the web"), tool("fetch.page", "Fetch")]);
    b = await startToolServer([tool("search", "Search the code")]);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  test("two servers' search tools get distinct, valid ids that map back", async () => {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "web", url: a.url });
    await registry.add({ name: "code.base", url: b.url });
    const catalog = await createCatalog({
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    const ids = catalog.entries.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, TOOL_NAME);
    const searches = catalog.entries.filter((e) => e.name === "search");
    assert.equal(searches.length, 2);
    for (const entry of searches) {
      assert.equal(catalog.get(entry.id), entry);
      assert.equal(catalog.toolTarget(entry.id)?.server?.name, entry.server);
      assert.equal(catalog.toolTarget(entry.id)?.tool.name, "search");
    }
    assert.ok(catalog.get("web__search"), "a plain name keeps the readable id");
    const dotted = searches.find((e) => e.server === "code.base")!;
    assert.match(dotted.id, /^code_base__search_[0-9a-f]{8}$/);
    assert.match(catalog.entries.find((e) => e.name === "fetch.page")!.id, /^web__fetch_page_/);
    catalog.dispose();
  });

  test("host function names are checked and kept as ids", async () => {
    await assert.rejects(createCatalog({ functions: [fn("bad name", "x")] }), /1-64 letters/);
    await assert.rejects(
      createCatalog({ functions: [fn("twice", "x"), fn("twice", "y")] }),
      /registered twice/,
    );
    const catalog = await createCatalog({ functions: [fn("lookup_sample", "Find a sample")] });
    assert.equal(catalog.get("lookup_sample")?.kind, "function");
    assert.equal(catalog.hostFunction("lookup_sample")?.name, "lookup_sample");
  });
});
