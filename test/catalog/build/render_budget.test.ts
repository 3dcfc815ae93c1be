// The listing within a token budget (render({ budget }), lib/catalog/build/_render.ts): lines counted
// lazily and once against the budget less a fixed allowance, a budget exactly the whole listing
// or exactly its headings, the request's best entries kept (counted once, shown in catalog order),
// the least relevant left out first, the headings' floor refused by figures, a counter that
// failed or changes its answer. Real catalogs of host functions; token counts by lines or
// characters, so every figure is known. The listing itself: render.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createCatalog } from "../../../lib/mod.ts";
import { FIVE_FUNCTIONS, fn } from "../_entries.ts";

/** A token counter that counts lines: every line of a listing costs exactly one token. */
const lines = (text: string) => text.split("\n").filter(Boolean).length;
const chars = (text: string) => text.length;

describe("render within a budget", () => {
  // Twenty functions, one kind: the whole listing is its heading and 20 lines (21 tokens); the
  // headings' floor is "(no entries)" and the omission note (2); the allowance on top of the
  // lines is the floor and two per kind of entry (2 + 3 × 2 = 8).
  const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, "0")}`);
  const FUNCTIONS = names.map((name) => fn(name, `Runs step ${name} of the pipeline`));

  test("lines are counted one by one until the next no longer fits the budget less the allowance", async () => {
    const catalog = await createCatalog({ functions: FUNCTIONS });
    const asked: string[] = [];
    const counting = (text: string) => (asked.push(text), lines(text));
    const cut = await catalog.render({ budget: 12, countTokens: counting });
    // 8 + 4 lines = 12 fit; the fifth does not: four entries, then the listing checked once.
    assert.deepEqual(cut.ids, names.slice(0, 4));
    assert.equal(cut.omitted, 16);
    assert.equal(cut.tokens, 6);
    assert.equal(
      cut.text,
      [
        "Functions of this application:",
        ...names.slice(0, 4).map((n) => `${n}: Runs step ${n} of the pipeline`),
        "(16 more entries left out to fit the token budget)",
        "",
      ].join("\n"),
    );
    // Five lines counted (the four shown and the first left out), nothing further down; and three
    // listings: the whole one, the headings' floor, the result.
    const lineCalls = asked.filter((t) => t.indexOf("\n") === t.length - 1);
    assert.deepEqual(
      lineCalls,
      names.slice(0, 5).map((n) => `${n}: Runs step ${n} of the pipeline\n`),
    );
    assert.equal(asked.length - lineCalls.length, 3);
    // Counted again with the lines known, the budget keeps the same entries.
    assert.deepEqual(await catalog.render({ budget: 12, countTokens: counting }), cut);
  });

  test("a budget of exactly the whole listing shows it whole; one of exactly the headings shows none", async () => {
    const catalog = await createCatalog({ functions: FUNCTIONS });
    const whole = await catalog.render({ countTokens: lines });
    assert.equal(whole.tokens, 21);
    const exact = await catalog.render({ budget: 21, countTokens: lines });
    assert.deepEqual(exact, whole);
    assert.equal(exact.omitted, 0);
    assert.deepEqual(exact.ids, names);
    const bare = await catalog.render({ budget: 2, countTokens: lines });
    assert.deepEqual(bare, {
      text: "(no entries)\n(20 more entries left out to fit the token budget)\n",
      tokens: 2,
      ids: [],
      omitted: 20,
    });
    await assert.rejects(catalog.render({ budget: 1, countTokens: lines }), RangeError);
  });

  test("the request's best entries are counted once, not again in catalog order", async () => {
    const functions = [
      fn("a_archive", "Archive finished sequencing runs"),
      fn("b_archive", "Archive raw reads to tape"),
      ...names.map((name) => fn(name, `Runs step ${name} of the pipeline`)),
    ];
    const catalog = await createCatalog({ functions });
    assert.deepEqual(catalog.rank("archive").map((r) => r.entry.id), ["a_archive", "b_archive"]);
    // 8 + 4 lines = 12: the two best, then the first two others in catalog order.
    const cut = await catalog.render({ budget: 12, request: "archive", countTokens: lines });
    assert.deepEqual(cut.ids, ["a_archive", "b_archive", "f00", "f01"]);
    assert.equal(cut.omitted, 18);
  });

  test("a counter that changes its answer for the same listing still ends the render", async () => {
    // It answers by lines at first, then far more than the budget, and refuses to be asked on and
    // on: the render stops once nothing is left to leave out, with the count it was given.
    const catalog = await createCatalog({ functions: FUNCTIONS.slice(0, 3) });
    let calls = 0;
    const drifting = (text: string) => {
      if (++calls > 50) throw new Error("asked 50 times");
      return calls <= 3 ? lines(text) : 1_000;
    };
    const rendered = await catalog.render({ budget: 3, countTokens: drifting });
    assert.deepEqual(rendered, {
      text: "(no entries)\n(3 more entries left out to fit the token budget)\n",
      tokens: 1_000,
      ids: [],
      omitted: 3,
    });
    assert.equal(calls, 4); // the whole listing, the floor, the first line, the result
  });

  test("counts each line once, lazily, and not again next time", async () => {
    // A short first line, then 300 long ones: a budget fits the first few.
    const long = (i: number) =>
      `Step ${i} of the pipeline ${"that reads, checks and writes sample sheets ".repeat(2)}`;
    const functions = [
      fn("aa", "A."),
      ...Array.from({ length: 300 }, (_, i) => fn(`step_${String(i).padStart(3, "0")}`, long(i))),
    ];
    const catalog = await createCatalog({ functions });
    const asked: string[] = [];
    const chars = (text: string) => (asked.push(text), text.length);
    const lineCalls = () => asked.filter((t) => t.indexOf("\n") === t.length - 1);
    const listingCalls = () => asked.filter((t) => t.indexOf("\n") < t.length - 1);

    const budget = 1_500;
    const first = await catalog.render({ budget, countTokens: chars });
    assert.ok(first.tokens <= budget);
    assert.equal(first.tokens, first.text.length);
    const fit = first.ids.length;
    assert.ok(fit > 5 && fit < 20, `${fit} entries shown`);
    assert.deepEqual(first.ids, functions.slice(0, fit).map((f) => f.name));
    assert.equal(first.omitted, functions.length - fit);
    // Each line shown, and the first one left out, was counted once; nothing further down.
    assert.deepEqual(
      lineCalls().sort(),
      functions.slice(0, fit + 1).map((f) => `${f.name}: ${f.description.trim()}\n`).sort(),
    );
    // The whole listing, the headings' floor and the result: the listing is not cut one by one.
    assert.ok(listingCalls().length <= 4, `${listingCalls().length} listings counted`);

    asked.length = 0;
    const again = await catalog.render({ budget, countTokens: chars });
    assert.deepEqual(again, first);
    assert.deepEqual(lineCalls(), [], "the lines' counts are kept for the same counter");
  });

  test("over budget, the least relevant entries go first and the best match stays", async () => {
    const functions = Array.from(
      { length: 60 },
      (_, i) => fn(`task_${String(i).padStart(2, "0")}`, `Routine chore number ${i} of the office`),
    );
    functions.push(
      fn("zz_kraken", "Classify metagenomic reads by taxonomy with Kraken"),
      fn("zz_kraken_db", "Build a Kraken database"),
      fn("zz_reads_qc", "Check the quality of sequencing reads"),
      fn("zz_taxonomy", "Browse a taxonomy tree"),
    );
    const catalog = await createCatalog({ functions });
    const request = "classify metagenomic reads by taxonomy with kraken";
    const ranking = catalog.rank(request, { limit: Infinity }).map((r) => r.entry.id);
    assert.equal(ranking[0], "zz_kraken");
    assert.ok(ranking.length >= 4);
    // A counter whose per-line counts add up to less than the whole: the budget's first estimate
    // overshoots, and entries must then be taken out again.
    const countTokens = (text: string) => Math.floor(text.length / 10);
    const whole = await catalog.render({ countTokens });
    let partial = 0; // budgets at which only part of the ranking fits
    for (let budget = 1; budget < whole.tokens; budget += 3) {
      const rendered = await catalog.render({ budget, request, countTokens }).catch((e) => e);
      if (rendered instanceof RangeError) continue; // below what the headings need
      assert.ok(!(rendered instanceof Error), String(rendered));
      assert.ok(rendered.tokens <= budget, `${rendered.tokens} > ${budget}`);
      assert.ok(rendered.omitted > 0);
      // Whenever any entry fits, the best match is one of them.
      if (rendered.ids.length > 0) {
        assert.ok(rendered.ids.includes("zz_kraken"), `budget ${budget}: ${rendered.ids}`);
      }
      // The ranked entries shown are the best of the ranking; other entries only after all of them.
      const shown = ranking.filter((id) => rendered.ids.includes(id));
      assert.deepEqual(shown, ranking.slice(0, shown.length), `budget ${budget}`);
      if (rendered.ids.length > shown.length) assert.equal(shown.length, ranking.length);
      if (shown.length < ranking.length) partial++;
    }
    assert.ok(partial >= 2, "some budgets fit only part of the ranking");
  });
});

describe("render within a budget: the request's entries", () => {
  const FIVE = FIVE_FUNCTIONS;

  test("a budget below the headings is refused, naming both figures", async () => {
    const catalog = await createCatalog({ functions: FIVE });
    const floor = "(no entries)\n(5 more entries left out to fit the token budget)\n".length;
    await assert.rejects(
      catalog.render({ budget: floor - 1, countTokens: chars }),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          `A token budget of ${
            floor - 1
          } is below the ${floor} tokens the catalog needs for its headings`,
    );
  });

  test("the request's best entries are kept, shown in catalog order; the rest counted", async () => {
    const catalog = await createCatalog({ functions: FIVE });
    const whole = await catalog.render({ countTokens: chars });
    assert.equal(whole.omitted, 0);
    assert.equal(whole.tokens, whole.text.length);
    assert.deepEqual(whole.ids, ["archive", "bam_stats", "cleanup", "demux", "export_bam"]);
    const expected = [
      "Functions of this application:",
      "bam_stats: Statistics of a BAM file",
      "export_bam: Export a BAM file to the archive",
      "(3 more entries left out to fit the token budget)",
      "",
    ].join("\n");
    const cut = await catalog.render({
      budget: expected.length,
      request: "BAM file export",
      countTokens: chars,
    });
    assert.equal(cut.text, expected);
    assert.deepEqual(cut.ids, ["bam_stats", "export_bam"]);
    assert.equal(cut.omitted, 3);
    assert.equal(cut.tokens, expected.length);
    // Without a request the budget keeps entries in catalog order.
    const first = await catalog.render({ budget: expected.length, countTokens: chars });
    assert.deepEqual(first.ids.slice(0, 1), ["archive"]);
    assert.ok(first.tokens <= expected.length);
  });

  test("a counter that failed is asked again next time", async () => {
    const catalog = await createCatalog({ functions: FIVE });
    let calls = 0;
    const flaky = (text: string) => {
      if (++calls === 1) throw new Error("tokenizer not ready");
      return text.length;
    };
    await assert.rejects(catalog.render({ countTokens: flaky }), /tokenizer not ready/);
    // A counter whose promise rejects once: the rejection is not kept either.
    let asked = 0;
    const late = (text: string) =>
      ++asked === 1 ? Promise.reject(new Error("still loading")) : Promise.resolve(text.length);
    await assert.rejects(catalog.render({ countTokens: late }), /still loading/);
    assert.equal((await catalog.render({ countTokens: late })).tokens > 0, true);
    const rendered = await catalog.render({ countTokens: flaky });
    assert.equal(rendered.tokens, rendered.text.length);
    // The whole listing's count is kept per counter and catalog version.
    const before = calls;
    await catalog.render({ countTokens: flaky });
    assert.equal(calls, before);
  });
});
