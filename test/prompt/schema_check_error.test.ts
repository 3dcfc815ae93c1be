// The schema check's error family (lib/prompt/_schema_check_error.ts): the guards that stop a
// check of tool-call arguments throw a SchemaCheckError with a stable `name` and a `code` that
// says which guard, met here through the real pattern compiler and the real visit budget.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SchemaCheckError } from "../../lib/prompt/_schema_check_error.ts";
import { compilePattern, PatternError } from "../../lib/prompt/_pattern.ts";
import { guardedSchema, SchemaBudgetError, withinBudget } from "../../lib/prompt/_safe_schema.ts";

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return assert.fail("expected a throw");
};

test("a pattern the matcher does not run is a SchemaCheckError of code `pattern`", () => {
  const error = thrown(() => compilePattern("(?=a)b"));
  assert.ok(error instanceof PatternError && error instanceof SchemaCheckError, String(error));
  assert.deepEqual([error.name, error.code], ["PatternError", "pattern"]);
});

test("a validation over its budget is a SchemaCheckError of code `budget`", () => {
  const copy = guardedSchema({ type: "object", $recursiveAnchor: true }) as Record<string, unknown>;
  const error = thrown(() =>
    withinBudget(
      () => {
        for (let i = 0; i < 5; i++) void copy.$recursiveAnchor;
      },
      60_000,
      2,
    )
  );
  assert.ok(error instanceof SchemaBudgetError && error instanceof SchemaCheckError, String(error));
  assert.deepEqual([error.name, error.code, error.message], [
    "SchemaBudgetError",
    "budget",
    "over 2 steps",
  ]);
});
