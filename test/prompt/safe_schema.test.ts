// The visit counter of a guarded schema copy (lib/prompt/_safe_schema.ts), unit by unit: the
// validator's visits read `$recursiveAnchor`, the budget allows exactly its number of visits, and
// the clock is read every 256th visit, stopping a validation only once its time is past. The same
// guard through executeToolCall on a real server: hostile_schema.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { guardedSchema, SchemaBudgetError, withinBudget } from "../../lib/prompt/_safe_schema.ts";

describe("the guarded schema's visit budget and clock", () => {
  /** Read the copy's `$recursiveAnchor` `n` times, as the validator does once per visit. */
  function visit(copy: Record<string, unknown>, n: number): unknown {
    let anchor: unknown;
    for (let i = 0; i < n; i++) anchor = copy.$recursiveAnchor;
    return anchor;
  }

  const copy = () => guardedSchema({ type: "object", $recursiveAnchor: true }) as never;

  test("a budget of n visits allows n visits, and the n + 1st stops the validation", () => {
    assert.equal(withinBudget(() => visit(copy(), 10), 60_000, 10), true, "the anchor is kept");
    assert.throws(
      () => withinBudget(() => visit(copy(), 11), 60_000, 10),
      (e: Error) => e instanceof SchemaBudgetError && e.message === "over 10 steps",
    );
    // Outside a validation nothing is counted.
    assert.equal(visit(copy(), 1_000), true);
  });

  test("the clock is read every 256th visit; a validation stops only once its time is past", () => {
    const now = Date.now;
    let clock = 1_000_000;
    Date.now = () => clock;
    try {
      // The deadline itself is not past: 256 visits at the deadline go on.
      assert.equal(withinBudget(() => visit(copy(), 300), 0), true);
      // One millisecond past it, the 256th visit stops the validation, no visit before it.
      let seen = 0;
      const counted = copy() as Record<string, unknown>;
      assert.throws(
        () =>
          withinBudget(() => {
            clock += 1;
            for (; seen < 300; seen++) void counted.$recursiveAnchor;
          }, 0),
        (e: Error) =>
          e instanceof SchemaBudgetError && e.message === "longer than the call's timeout",
      );
      assert.equal(seen, 255, "the visits before the 256th ran");
    } finally {
      Date.now = now;
    }
  });
});
