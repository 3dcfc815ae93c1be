// countTokens of ".": exact o200k in Deno and Node (the tokenizer loads beside the package's
// files at run time), and estimateTokens, its fallback in a bundle without the tokenizer, is an
// upper estimate. The one-file fallback itself is held by scripts/check_bundle.ts.
// The estimate's own rule, and countTokens' fallback to it when the tokenizer cannot load.
import assert from "node:assert/strict";
import { test } from "node:test";
import { countTokens, estimateTokens } from "../../../lib/catalog/mod.ts";
import { loaders } from "../../../lib/_runtime_loaders.ts";
import { countO200kTokens } from "../../../lib/tokenizer/mod.ts";
import { BUILTIN_SKILLS } from "../../../lib/resolve/_builtin_skills.ts";

test("countTokens loads the exact o200k counter in this runtime", async () => {
  assert.equal(await countTokens("Sort and index a BAM file"), 6);
  const text = BUILTIN_SKILLS["samtools"];
  assert.equal(await countTokens(text), countO200kTokens(text));
  assert.notEqual(await countTokens(text), estimateTokens(text));
});

test("estimateTokens is never below the exact count on the built-in skills and mixed text", () => {
  const texts = [
    ...Object.values(BUILTIN_SKILLS),
    '{"a":[1,2,3],"b":"c"}',
    "日本語のテキスト",
    "def f(x):\n    return x*2\n",
    "🤖👩‍👩‍👧 emoji",
  ];
  for (const text of texts) {
    assert.ok(estimateTokens(text) >= countO200kTokens(text), text.slice(0, 40));
  }
});

test("estimateTokens: a token per three letters or digits, one per other character; spaces and tabs free", () => {
  assert.equal(estimateTokens(""), 0);
  assert.equal(estimateTokens("abc"), 1);
  assert.equal(estimateTokens("abcd"), 2);
  assert.equal(estimateTokens("ABC def"), 2);
  assert.equal(estimateTokens("09AZaz"), 2);
  assert.equal(estimateTokens("a\tb c"), 1);
  assert.equal(estimateTokens("@[`{/:"), 6);
  assert.equal(estimateTokens("a,b\n"), 3);
  assert.equal(estimateTokens("é"), 1);
});

test("countTokens falls back to estimateTokens when the tokenizer cannot load", async () => {
  // A fresh copy of the module (its first load is still ahead), with a loader that fails, as in
  // a bundle without the tokenizer's files.
  const saved = loaders.tokenizer;
  loaders.tokenizer = () => Promise.reject(new Error("no tokenizer here"));
  try {
    const fresh = await import(`../../../lib/catalog/build/tokens.ts?fallback=${Date.now()}`);
    const text = "Sort and index a BAM file";
    assert.equal(await fresh.countTokens(text), estimateTokens(text));
    assert.equal(estimateTokens(text), 7);
  } finally {
    loaders.tokenizer = saved;
  }
  assert.equal(await countTokens("Sort and index a BAM file"), 6);
});
