// The catalog's text rules, unit by unit, where the first mutation run of `catalog` found them
// held only through rankings (issue 19): how words become search terms (tokens and their parts,
// the stemmer, stop words, numbers, genomic regions), how the listing is laid out (groups,
// server lines, tags, a remote skill's source, the omission note), the token estimate, and the
// evidence a document holds for a query.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { entryLine, renderLines } from "../../lib/catalog/_render.ts";
import type { CatalogEntry } from "../../lib/catalog/types.ts";

const entry = (
  fields: Partial<CatalogEntry> & Pick<CatalogEntry, "id" | "kind">,
): CatalogEntry => ({
  name: fields.id,
  description: "",
  source: "user",
  tags: [],
  keywords: [],
  needsConnection: false,
  remote: false,
  digest: "d",
  approval: "approved",
  ...fields,
});

describe("the listing", () => {
  test("a line: the first sentence of a long description, five tags, a remote skill's source", () => {
    const long = `Sorts BAM files by coordinate. ${"More words here. ".repeat(12)}`;
    assert.equal(
      entryLine(entry({
        id: "samtools",
        kind: "skill",
        description: long,
        tags: ["a", "b", "c", "d", "e", "f"],
        source: "mcp:team",
      })),
      "samtools: Sorts BAM files by coordinate. [a, b, c, d, e] (from mcp:team)",
    );
    assert.equal(entryLine(entry({ id: "s", kind: "skill", description: "Short." })), "s: Short.");
    // No description: the title, else the name.
    assert.equal(entryLine(entry({ id: "t", kind: "skill", title: "Title" })), "t: Title");
    assert.equal(entryLine(entry({ id: "n", kind: "function", name: "n" })), "n: n");
    // Tools: without their server prefix; tags and sources are a skill's only.
    assert.equal(
      entryLine(entry({
        id: "demo__echo",
        kind: "tool",
        server: "demo",
        description: "Echo.",
        tags: ["x"],
        source: "mcp:demo",
      })),
      "echo: Echo.",
    );
    // An id that does not start with its server's prefix, or is only the prefix, stays whole.
    assert.equal(
      entryLine(entry({ id: "demo__", kind: "tool", server: "demo", description: "D." })),
      "demo__: D.",
    );
    assert.equal(
      entryLine(entry({ id: "x_1", kind: "tool", server: "demo", description: "D." })),
      "x_1: D.",
    );
  });

  test("groups in kind order, a line per server, the omission note in singular and plural", () => {
    const shown = [
      entry({ id: "f", kind: "function", description: "F." }),
      entry({ id: "a__t", kind: "tool", server: "a", description: "T." }),
      entry({ id: "a__u", kind: "tool", server: "a", description: "U." }),
      entry({ id: "b__t", kind: "tool", server: "b", description: "T." }),
      entry({ id: "s", kind: "skill", description: "S." }),
    ];
    assert.equal(
      renderLines(shown, 1),
      [
        "Skills (know-how documents; pick by id):",
        "s: S.",
        "MCP tools by server (id: <server>__<tool>):",
        "a:",
        "t: T.",
        "u: U.",
        "b:",
        "t: T.",
        "Functions of this application:",
        "f: F.",
        "(1 more entry left out to fit the token budget)",
        "",
      ].join("\n"),
    );
    assert.equal(
      renderLines([], 3),
      "(no entries)\n(3 more entries left out to fit the token budget)\n",
    );
    assert.equal(renderLines([], 0), "(no entries)\n");
  });
});
