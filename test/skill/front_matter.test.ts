// readFrontMatter: the front matter verbatim as SEP-2640 hosts compare it, safe YAML only.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFrontMatter } from "../../lib/skill/front_matter.ts";

test("the front matter as a plain object, verbatim", async () => {
  const text =
    "---\nname: bwa\ndescription: Align reads.\nmetadata:\n  tags: [dna, align]\n---\nBody\n";
  assert.deepEqual(await readFrontMatter(text), {
    name: "bwa",
    description: "Align reads.",
    metadata: { tags: ["dna", "align"] },
  });
  assert.deepEqual(await readFrontMatter(`\uFEFF${text}`), await readFrontMatter(text));
});

test("no front matter, a non-mapping, invalid YAML or duplicate keys: undefined", async () => {
  assert.equal(await readFrontMatter("# Just Markdown\n"), undefined);
  assert.equal(await readFrontMatter("---\n- a\n- b\n---\n"), undefined);
  assert.equal(await readFrontMatter("---\nname: [unclosed\n---\n"), undefined);
  assert.equal(await readFrontMatter("---\nname: a\nname: b\n---\n"), undefined);
});

test("an alias bomb past the alias budget is refused, a few aliases are fine", async () => {
  const few = "---\nbase: &b x\none: *b\ntwo: *b\n---\n";
  assert.deepEqual(await readFrontMatter(few), { base: "x", one: "x", two: "x" });
  const rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const next = String.fromCharCode(97 + i);
    rows.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
  }
  assert.equal(await readFrontMatter(`---\n${rows.join("\n")}\n---\n`), undefined);
});
