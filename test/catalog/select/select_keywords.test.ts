// Selection by keywords, and when nothing fits (selectForRequest without a model, or after an
// unusable answer): the evidence floor and the 30 % ratio to the best, caps, complexity read
// from steps, scores to two decimals, entries of equal evidence all selected; the reasons given
// when nothing fits (no shared word, shared words without evidence, the model choosing nothing,
// its reasoning cut at 300 characters); held entries that would fit named in the reason. Real
// catalogs of the built-in skills and real MCP servers on 127.0.0.1 (_select_catalogs.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Catalog, selectForRequest } from "../../../lib/mod.ts";
import { model } from "../_selections.ts";
import { FLUX, startDemo, startLab } from "../_select_catalogs.ts";

let demo: Catalog;
let lab: Catalog;
/** The lab server's tools, held for approval. */
let held: Catalog;
const closing: Array<() => Promise<void>> = [];
before(async () => {
  const d = await startDemo();
  const l = await startLab();
  closing.push(d.close, l.close);
  ({ catalog: demo } = d);
  ({ catalog: lab, held } = l);
});
after(async () => {
  for (const close of closing) await close();
});

describe("the keyword path", () => {
  test("without a model: says so, needs nothing external, entries of equal evidence all select", async () => {
    // "zorblax" alone is held by twelve of the catalog's entries: no longer specific enough alone
    // (issue 47); with "flux", their names' word, each holds two words.
    const selection = await selectForRequest(lab, "zorblax flux of a channel", {
      maxTools: 20,
    });
    const ranked = lab.rank("zorblax flux of a channel", { limit: 100 }).filter((r) =>
      r.evidence >= 2
    );
    const flux = ranked.filter((r) => /^lab__flux\d+$/.test(r.entry.id));
    assert.equal(flux.length, 12);
    assert.ok(flux.every((r) => r.evidence === flux[0].evidence));
    assert.equal(selection.via, "keyword");
    assert.deepEqual(selection.fallback, {
      reason: "no-llm",
      message: "No LLM was configured; keyword ranking selected.",
    });
    // All twelve, past rank's default limit of ten; more than three picks is complex.
    assert.deepEqual(selection.tools, FLUX.map((t) => `lab__${t.name}`).sort());
    assert.deepEqual(selection.skills, []);
    assert.equal(selection.complexity, "complex");
    assert.equal(selection.needsExternal, false);
    assert.equal(selection.reason, undefined);
    const capped = await selectForRequest(lab, "zorblax flux of a channel", { maxTools: 3 });
    assert.deepEqual(capped.tools, ["lab__flux0", "lab__flux1", "lab__flux10"]);
    assert.equal(capped.complexity, "simple");
  });

  test("a relevant candidate under 30 % of the best score is left out", async () => {
    // lab__lab__flux1 holds "flux" in its name (relevant), far below the twelve flux tools.
    const request = "zorblax flux of a channel";
    const ranked = lab.rank(request, { limit: 100 });
    const named = ranked.find((r) => r.entry.id === "lab__lab__flux1")!;
    assert.ok(named.evidence >= 2, String(named.evidence));
    assert.ok(named.score < ranked[0].score * 0.3);
    const selection = await selectForRequest(lab, request, { maxTools: 20 });
    assert.equal(selection.tools.includes("lab__lab__flux1"), false);
    // "quintile" alone: held by two entries, 3 and 2 times its specificity.
    assert.deepEqual(
      lab.rank("quintile", { limit: 100 }).map((r) => [r.entry.id, r.evidence]),
      [["lab__quintile_strong", 2.83], ["lab__weak_one", 1.89]],
    );
  });

  test("one skill and one tool: selected, with their scores to two decimals, and no reason", async () => {
    const request = "samtools quintile";
    const selection = await selectForRequest(lab, request);
    assert.deepEqual([selection.skills, selection.tools], [["samtools"], [
      "lab__quintile_strong",
    ]]);
    assert.equal(selection.reason, undefined);
    const score = (id: string) =>
      lab.rank(request, { limit: 100 }).find((r) => r.entry.id === id)!.score;
    assert.deepEqual(selection.scores, {
      samtools: Math.round(score("samtools") * 100) / 100,
      lab__quintile_strong: Math.round(score("lab__quintile_strong") * 100) / 100,
    });
    assert.ok(selection.scores!.samtools > 1);
  });

  test("shared words but none relevant: the best is 'none', every entry sharing a word counted", async () => {
    const ranked = lab.rank("number", { limit: 100 });
    assert.ok(ranked.length > 10 && ranked.every((r) => r.evidence < 2));
    const selection = await selectForRequest(lab, "number");
    assert.match(selection.reasoning, / % of the best \(none\)\.$/);
    assert.match(
      selection.reason!,
      new RegExp(`^Nothing in the catalog fits: ${ranked.length} entries share words`),
    );
  });
});

describe("nothing fits", () => {
  test("answers that only say nothing are an empty selection by the model", async () => {
    for (const answer of ["", "none", "[]", "{ }", "Nothing.", '"null"', "N/A", " `none` "]) {
      const selection = await selectForRequest(demo, "hello there", { llm: model(answer).llm });
      assert.equal(selection.via, "llm", JSON.stringify(answer));
      assert.deepEqual([selection.skills, selection.tools], [[], []]);
      assert.equal(
        selection.reason,
        "Nothing in the catalog fits: the model chose no skill and no tool.",
      );
    }
  });

  test("the model's reasoning, cut at 300 characters, is part of the reason", async () => {
    const reasoning = `Small talk. ${"r".repeat(400)}`;
    const { llm } = model(JSON.stringify({ skills: [], tools: [], reasoning }));
    const selection = await selectForRequest(demo, "hello there", { llm });
    assert.equal(
      selection.reason,
      `Nothing in the catalog fits: the model chose no skill and no tool (${
        reasoning.slice(0, 300)
      }).`,
    );
    assert.equal(selection.reasoning, reasoning);
  });

  test("the keyword path: no shared word, or shared words without evidence", async () => {
    const none = await selectForRequest(demo, "zzqx wvvy");
    const n = demo.entries.length;
    assert.equal(
      none.reasoning,
      `No catalog entry shares a keyword with the request (${n} entries).`,
    );
    assert.equal(
      none.reason,
      `Nothing in the catalog fits: no entry of ${n} shares a word with the request.`,
    );
    assert.equal(none.complexity, "simple");
    const weak = await selectForRequest(demo, "number");
    assert.deepEqual([weak.skills, weak.tools], [[], []]);
    assert.match(
      weak.reason!,
      /^Nothing in the catalog fits: \d+ entries share words with the request, but none holds its specific words in a name, tag, example task or description \(best: [\w-]+, evidence [\d.]+ of 2 needed\)\.$/,
    );
  });

  test("the keyword path reads steps as complex and gives each pick its score", async () => {
    const selection = await selectForRequest(demo, "sort a BAM file then index it");
    assert.equal(selection.complexity, "complex");
    assert.equal(selection.skills[0], "samtools");
    assert.match(
      selection.reasoning,
      /^Keyword ranking \(BM25\+\) of \d+ entries; kept those whose name, tags, example tasks or description hold the request's specific words \(evidence 2 or more\) and scoring at least 30 % of the best \(samtools\)\.$/,
    );
    const score = selection.scores!.samtools;
    assert.equal(score, Math.round(score * 100) / 100);
    assert.ok(score > 0);
    const simple = await selectForRequest(demo, "sort a BAM file");
    assert.equal(simple.complexity, "simple");
  });
});

describe("held entries", () => {
  test("nothing selected: the reason names the first ten held entries that would fit", async () => {
    const selection = await selectForRequest(held, "zorblax");
    assert.deepEqual([selection.skills, selection.tools], [[], []]);
    const fitting = selection.held!.filter((h) => h.fits).map((h) => h.id);
    assert.deepEqual([...fitting].sort(), FLUX.map((t) => `lab__${t.name}`).sort());
    assert.equal(
      selection.reason,
      "Nothing in the catalog fits: no entry of 0 shares a word with the request. " +
        `Held for approval, and would fit: ${fitting.slice(0, 10).join(", ")}.`,
    );
  });
});
