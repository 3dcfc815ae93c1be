/**
 * The arguments of a tool call checked against the entry's input schema, as `executeToolCall`
 * checks them before a call and `skillmux call` before it runs one: remote schemas on a guarded
 * copy (linear-time patterns, a visit budget, the call's timeout), validators kept per schema
 * digest.
 *
 * @module
 */

import { Validator } from "@cfworker/json-schema";
import { BoundedCache } from "../_bounded_cache.ts";
import { cleanLine } from "../_text_clean.ts";
import type { CatalogEntry, JsonSchema } from "../catalog/model/types.ts";
import {
  guardedSchema,
  hasPatterns,
  linearSchema,
  SchemaBudgetError,
  withinBudget,
} from "./_safe_schema.ts";

/** Validators by schema digest: building one is the costly part. */
const validators = new BoundedCache<string, Validator>(1_001, "all");

function draftOf(schema: JsonSchema): "4" | "7" | "2020-12" {
  const uri = String(schema.$schema ?? "");
  return uri.includes("draft-07") ? "7" : uri.includes("draft-04") ? "4" : "2020-12";
}

/**
 * Why `args` do not fit the entry's input schema (empty when they do). Remote schemas are checked
 * on a guarded copy: patterns on a linear-time engine, at most STEP_BUDGET schema visits and the
 * call's timeout. A schema that cannot be used (a `$ref` that loops or points nowhere, a pattern
 * that does not compile, work past the budget) is a problem too, never a throw.
 *
 * @param entry The catalog entry called (its `inputSchema`, `remote`, `digest` and `id`).
 * @param args The call's arguments.
 * @param timeoutMs How long checking a remote schema may take.
 * @returns At most five problems, each `where: what`; empty when the arguments fit.
 *
 * @example
 * ```ts
 * import { schemaProblems } from "./check_arguments.ts";
 * import type { CatalogEntry } from "../catalog/model/types.ts";
 * declare const entry: CatalogEntry; // a tool whose schema requires `path`
 * console.log(schemaProblems(entry, {}, 10_000)); // ["arguments: ..."] naming `path`
 * ```
 */
export function schemaProblems(
  entry: CatalogEntry,
  args: Record<string, unknown>,
  timeoutMs: number,
): string[] {
  const schema = entry.inputSchema ?? { type: "object" };
  try {
    let validator = validators.get(entry.digest);
    let restore = (message: string) => message;
    if (entry.remote && hasPatterns(schema)) {
      const linear = linearSchema(schema, args);
      validator = new Validator(linear.schema, draftOf(schema), false);
      restore = linear.restore;
    } else if (!validator) {
      const checked = entry.remote ? guardedSchema(schema) : schema;
      validator = new Validator(checked as Record<string, unknown>, draftOf(schema), false);
      validators.set(entry.digest, validator);
    }
    const v = validator;
    const result = entry.remote
      ? withinBudget(() => v.validate(args), timeoutMs)
      : v.validate(args);
    if (result.valid) return [];
    const leaves = result.errors.filter((e) => !/^(properties|allOf|anyOf|\$ref)$/.test(e.keyword));
    return (leaves.length > 0 ? leaves : result.errors).slice(0, 5).map((e) =>
      `${e.instanceLocation === "#" ? "arguments" : e.instanceLocation.replace(/^#/, "")}: ${
        cleanLine(restore(e.error), 300)
      }`
    );
  } catch (error) {
    const why = error instanceof SchemaBudgetError
      ? `checking these arguments takes ${error.message}`
      : error instanceof RangeError
      ? "it never ends (a $ref cycle or nesting too deep)"
      : cleanLine(error instanceof Error ? error.message : String(error), 300);
    return [`the input schema of "${entry.id}" cannot be checked: ${why}`];
  }
}
