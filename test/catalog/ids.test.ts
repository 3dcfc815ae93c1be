// Catalog ids (lib/catalog/_ids.ts): a valid name is its own id; a clash or an invalid name gets
// a stable hash, salted when even that is taken; a long name keeps 55 characters and 8 hex digits,
// also through a real catalog of a host function and a skill of one name.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../lib/mod.ts";
import { IdTable, shortHash } from "../../lib/catalog/_ids.ts";
import { skillDoc } from "./_entries.ts";

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
