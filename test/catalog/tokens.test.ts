// countTokens of ".": exact o200k in Deno and Node (the tokenizer loads beside the package's
// files at run time), and estimateTokens, its fallback in a bundle without the tokenizer, is an
// upper estimate. The one-file fallback itself is held by scripts/check_bundle.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { countTokens, estimateTokens } from "../../lib/catalog/mod.ts";
import { countO200kTokens } from "../../lib/tokenizer/mod.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/_builtin_skills.ts";

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
