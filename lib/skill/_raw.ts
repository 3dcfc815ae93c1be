// Private: a parser-neutral view of front-matter fields (from YAML or TOML),
// so one set of rules checks both.

/** A field value, reduced to what the field rules need. */
export type RawValue =
  | { kind: "null"; line?: number }
  | { kind: "scalar"; text: string; line?: number }
  | { kind: "list"; items: RawValue[]; line?: number }
  | { kind: "map"; entries: RawField[]; line?: number };

/** A key and its value, with the 1-based line of the key. */
export interface RawField {
  key: string;
  value: RawValue;
  line?: number;
  /** The value as plain data, for keys kept in `skill.meta`. */
  toJS: () => unknown;
}

/** Names a kind of value in messages. */
export function kindName(value: RawValue): string {
  return value.kind === "scalar" ? "a string" : value.kind === "null" ? "empty" : `a ${value.kind}`;
}

/**
 * Copies parsed data into plain objects and arrays without ever invoking a
 * setter (so `__proto__` stays an own data property); dates become strings.
 */
export function toPlain(value: unknown, seen: Map<object, unknown> = new Map()): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(toPlain(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    defineData(out, key, toPlain((value as Record<string, unknown>)[key], seen));
  }
  return out;
}

/** Sets an own, enumerable data property, even for `__proto__`. */
export function defineData<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
