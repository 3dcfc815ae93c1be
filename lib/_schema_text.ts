// Private: the text of a remote input schema, cleaned and checked like descriptions. A schema
// reaches the model whole (OpenAI `parameters`, Anthropic `input_schema`), so every string in it
// (descriptions, titles, enum values, defaults, examples, at any depth) can carry hidden
// characters or address the model. Shared ground: the catalog flags a tool's schema with it, and
// prompt assembly cleans the schema it sends.

import { addressesModel, cleanLine, stripHidden } from "./_text_clean.ts";

/** A JSON Schema as a plain object (the catalog's `JsonSchema`). */
type JsonSchema = Record<string, unknown>;

/** Most flags one schema yields; the rest are counted. */
const MAX_FLAGS = 10;

/** Keys whose string values are regular expressions: cleaning would change what they match. */
const PATTERN = new Set(["pattern"]);

/** Keys whose arrays list property names, kept as they are like the names themselves. */
const NAMES = new Set(["required"]);

/** Set a property, even one named `__proto__`. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function clean(value: unknown, key: string | undefined): unknown {
  if (typeof value === "string") {
    return key !== undefined && PATTERN.has(key) ? value : stripHidden(value);
  }
  if (Array.isArray(value)) {
    const names = key !== undefined && NAMES.has(key);
    return value.map((item) => (names && typeof item === "string" ? item : clean(item, undefined)));
  }
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) put(out, k, clean(v, k));
  return out;
}

/**
 * A copy of `schema` whose string values, at every depth, hold no hidden, bidirectional or tag
 * characters. Property names (keys, and the names `required` lists) and `pattern` values are kept
 * as they are (they must still match what the server expects); {@link schemaFlags} reports hidden
 * characters there.
 */
export function cleanSchema(schema: JsonSchema): JsonSchema {
  return clean(schema, undefined) as JsonSchema;
}

/**
 * Why strings of `schema` seem to address the model, each naming where it sits, e.g.
 * `its input schema at properties.opts.properties.mode.description asks the model to ignore its
 * instructions`. At most ten, then a count of the rest.
 */
export function schemaFlags(schema: JsonSchema | undefined): string[] {
  const found: string[] = [];
  const check = (text: string, where: string) => {
    for (const why of addressesModel(text)) found.push(`its input schema at ${where} ${why}`);
  };
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") check(value, path || "the top");
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${cleanLine(key, 60)}` : cleanLine(key, 60);
        check(key, `${at} (the name)`);
        walk(item, at);
      }
    }
  };
  walk(schema, "");
  if (found.length <= MAX_FLAGS) return found;
  return [
    ...found.slice(0, MAX_FLAGS),
    `its input schema: … and ${found.length - MAX_FLAGS} more such strings`,
  ];
}
