// The o200k counter of `@skillmux/core/tokenizer`: exact against OpenAI's counts (fixed known
// values, and gpt-tokenizer — a dev dependency only — on the built-in skills and random text),
// linear-ish on a long piece, and its rank table generated from o200k_base.tiktoken.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import fc from "fast-check";
import { countTokens as reference } from "gpt-tokenizer/encoding/o200k_base";
import { countO200kTokens } from "../../lib/tokenizer/mod.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/_builtin_skills.ts";
import { RANKS_PATH, renderRanksModule } from "../../scripts/gen_o200k.ts";

const plain = { disallowedSpecial: new Set<string>() };

test("known o200k counts (tiktoken's)", () => {
  const known: [string, number][] = [
    ["", 0],
    ["hello world", 2],
    ["Sort and index a BAM file", 6],
    ["<|endoftext|>", 7], // a special token's text counts as plain text
    ["日本語のテキスト", 6],
    ["   \n\n  a", 3],
    ["I'm sure they'll've", 4],
    ["x".repeat(5000), 625],
  ];
  for (const [text, count] of known) assert.equal(countO200kTokens(text), count, text);
});

test("every built-in skill counts as gpt-tokenizer counts it", () => {
  for (const [name, text] of Object.entries(BUILTIN_SKILLS)) {
    assert.equal(countO200kTokens(text), reference(text, plain), name);
  }
});

test("random text counts as gpt-tokenizer counts it", () => {
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 80 }), // lone surrogates and all planes
    fc.string({ unit: "grapheme", maxLength: 80 }),
    fc.stringMatching(/^[ a-zA-Z'!?.,\n\t0-9]{0,80}$/), // contractions, digits, whitespace runs
  );
  fc.assert(
    fc.property(text, (t) => countO200kTokens(t) === reference(t, plain)),
    { numRuns: 1500 },
  );
});

test("a long piece without spaces is counted in O(n log n), not O(n²)", () => {
  const started = performance.now();
  assert.equal(countO200kTokens("!?".repeat(100_000)), 50_002); // as gpt-tokenizer counts it
  // tiktoken's quadratic merge takes minutes here; the heap takes well under a second.
  assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
});

test("lib/tokenizer/_o200k_ranks.ts is generated (node --import tsx scripts/gen_o200k.ts)", async () => {
  assert.equal(await readFile(RANKS_PATH, "utf8"), await renderRanksModule());
});
