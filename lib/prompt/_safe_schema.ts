// Private: a remote input schema cannot freeze the process. Two ways it could, both closed here:
//
// - A `pattern` (or `patternProperties` key) like `^(a+)+$` on V8's backtracking RegExp engine.
//   @cfworker/json-schema compiles patterns with `new RegExp` and offers no hook. So before each
//   remote validation every pattern is decided by our linear-time matcher (_pattern.ts, a Pike
//   VM) against every string the arguments hold (values and keys, at any depth: the only strings
//   the validator can test), and the schema copy the validator sees carries, in its place, a
//   literal alternation of exactly the strings that matched: same verdicts, linear time.
// - Work that grows exponentially with the arguments' depth (`anyOf` of two `$ref: "#"` takes
//   22 s on 20 levels). Every schema object of the copy counts the validator's visits (cfworker
//   reads `$recursiveAnchor` once per visit; a hidden getter answers it), and past STEP_BUDGET
//   visits the validation stops with SchemaBudgetError.
//
// The copy follows the keywords cfworker's `dereference` follows, so every schema it can reach
// (directly or by `$ref`) is rewritten.

import { BoundedCache } from "../_bounded_cache.ts";
import type { JsonSchema } from "../catalog/model/types.ts";
import { put } from "../_schema_text.ts";
import { compilePattern, type PatternMatcher } from "./_pattern.ts";
import { SchemaBudgetError } from "./_schema_check_error.ts";

/** Keywords whose values cfworker does not treat as schemas (as its `dereference` lists them). */
const DATA = new Set([
  "id",
  "$id",
  "$ref",
  "$schema",
  "$anchor",
  "$vocabulary",
  "$comment",
  "default",
  "enum",
  "const",
  "required",
  "dependentRequired",
  "type",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "format",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
]);
const ARRAYS = new Set(["prefixItems", "items", "allOf", "anyOf", "oneOf"]);
/**
 * Keywords whose values map names to schemas: cfworker's `dereference` list, and `dependencies`
 * (drafts 4 and 7), which its validator also reads, whatever the draft: a name there is never a
 * keyword (`dependencies: { const: {…} }` holds a schema, `{ pattern: ["flags"] }` a name list).
 */
const MAPS = new Set([
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
]);

/** Most schema visits of one validation: well under a second of work. */
export const STEP_BUDGET = 100_000;

// A validation stopped after STEP_BUDGET schema visits or its time.
export { SchemaBudgetError };

let steps = 0;
let budget = Infinity;
let until = Infinity;

/** Count a visit of the validator, under the budget of the validation running now. */
function count(out: Record<string, unknown>): void {
  const own = Object.hasOwn(out, "$recursiveAnchor");
  const anchor = out.$recursiveAnchor;
  Object.defineProperty(out, "$recursiveAnchor", {
    get() {
      if (++steps > budget) {
        throw new SchemaBudgetError(`over ${budget.toLocaleString("en")} steps`);
      }
      if (steps % 256 === 0 && Date.now() > until) {
        throw new SchemaBudgetError("longer than the call's timeout");
      }
      return anchor;
    },
    enumerable: own,
    configurable: true,
  });
}

/**
 * Run a (synchronous) validation on a guarded copy within `max` schema visits and `timeoutMs`.
 * Validations never overlap (they are synchronous), so one counter serves them all.
 */
export function withinBudget<T>(run: () => T, timeoutMs: number, max = STEP_BUDGET): T {
  steps = 0;
  budget = max;
  until = Date.now() + timeoutMs;
  try {
    return run();
  } finally {
    budget = Infinity;
    until = Infinity;
  }
}

/** A guarded copy of `node` read as a schema, each pattern passed through `swap` (tag: unique). */
function rewrite(node: unknown, swap: (pattern: string, tag: number) => string): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern") {
      // new RegExp(value) reads a non-string through String(): an array would still be a pattern.
      const text = typeof value === "string" || Array.isArray(value) ? String(value) : undefined;
      put(out, key, text === undefined ? rewrite(value, swap) : swap(text, 0));
    } else if (DATA.has(key)) put(out, key, value);
    else if (Array.isArray(value)) {
      put(out, key, ARRAYS.has(key) ? value.map((v) => rewrite(v, swap)) : value);
    } else if (MAPS.has(key) && value !== null && typeof value === "object") {
      const map: Record<string, unknown> = {};
      Object.entries(value).forEach(([name, sub], i) =>
        put(map, key === "patternProperties" ? swap(name, i + 1) : name, rewrite(sub, swap))
      );
      put(out, key, map);
    } else put(out, key, rewrite(value, swap));
  }
  count(out);
  return out;
}

/** A guarded copy of a remote schema without patterns (they stay as they are). */
export function guardedSchema(schema: JsonSchema): JsonSchema {
  return rewrite(schema, (pattern) => pattern) as JsonSchema;
}

/** Whether a schema holds a pattern anywhere (a cheap look before loading the engine). */
export function hasPatterns(schema: JsonSchema | undefined): boolean {
  let found = false;
  rewrite(schema, (p) => (found = true, p));
  return found;
}

/** Every string of `value`, keys included. */
function strings(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) { for (const item of value) strings(item, into); }
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) strings(item, into.add(key));
  }
  return into;
}

/**
 * A pattern (u-mode) matching exactly `texts` (never matching when empty), or every string when
 * `texts` is undefined; `tag` keeps patternProperties keys apart.
 */
function exactly(texts: readonly string[] | undefined, tag: number): string {
  const body = texts === undefined
    ? "^"
    : texts.length === 0
    ? "[^\\s\\S]"
    : `^(?:${texts.map((t) => t.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")).join("|")})$`;
  return tag === 0 ? body : `${body}|[^\\s\\S]{${tag}}`;
}

const compiled = new BoundedCache<string, PatternMatcher | undefined>(1_000, "all");

/**
 * Most matcher steps for the patterns of one call (all patterns against all its strings): the
 * work is linear, but a bounded repeat (`[a-z]{0,3000}`) against 100 kB is a billion steps. This
 * is a few hundred milliseconds; past it the check stops with SchemaBudgetError.
 */
export const PATTERN_BUDGET = 20_000_000;

/**
 * The linear-time matcher of a pattern, compiled once; undefined for a pattern it does not run
 * (lookaround, backreferences, bad syntax, over MAX_PROGRAM instructions).
 */
function matcherOf(pattern: string): PatternMatcher | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  let matcher: PatternMatcher | undefined;
  try {
    matcher = compilePattern(pattern);
  } catch {
    matcher = undefined;
  }
  compiled.set(pattern, matcher);
  return matcher;
}

/**
 * A guarded copy of remote `schema` whose patterns give, for the strings of `args`, the verdicts of
 * `new RegExp(pattern, "u")`, in linear time; `restore` puts the original patterns back into the
 * validator's messages. A pattern the matcher does not run (lookaround, backreferences) is left
 * unchecked here (it matches anything): the server still checks its own input.
 */
export function linearSchema(
  schema: JsonSchema,
  args: Record<string, unknown>,
): { schema: JsonSchema; restore(message: string): string } {
  const texts = [...strings(args, new Set())];
  const originals = new Map<string, string>();
  let left = PATTERN_BUDGET;
  const matches = (matcher: PatternMatcher) => (text: string) => {
    const verdict = matcher.test(text, left);
    left -= matcher.steps;
    if (verdict === undefined) {
      throw new SchemaBudgetError(`over ${PATTERN_BUDGET.toLocaleString("en")} pattern steps`);
    }
    return verdict;
  };
  const copy = rewrite(schema, (pattern, tag) => {
    const matcher = matcherOf(pattern);
    const swapped = exactly(matcher ? texts.filter(matches(matcher)) : undefined, tag);
    originals.set(swapped, pattern);
    return swapped;
  }) as JsonSchema;
  return {
    schema: copy,
    restore: (message) =>
      [...originals].reduce((m, [swapped, pattern]) => m.split(swapped).join(pattern), message),
  };
}
