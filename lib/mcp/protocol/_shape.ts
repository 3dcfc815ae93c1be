// Private: a few bytes of shape checking for JSON-RPC messages and MCP results (the client's
// browser bundle is small without a schema library). A shape maps keys to `s` (string), `o`
// (object), `b` (boolean), `i` (integer), `a` (array) or a nested shape (an array of objects of
// that shape); a trailing `?` makes a key optional (absent or null). Unknown keys are kept.

/** A shape: key → kind. */
export interface Shape {
  [key: string]: string | Shape;
}

/** Whether `value` is a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const KINDS: Record<string, [string, (value: unknown) => boolean]> = {
  s: ["a string", (value) => typeof value === "string"],
  o: ["an object", isObject],
  b: ["a boolean", (value) => typeof value === "boolean"],
  i: ["an integer", Number.isInteger],
  a: ["an array", Array.isArray],
};

/** The first problem of `value` against `shape`, as `"path" should be <kind>`, or `undefined`. */
export function problem(value: unknown, shape: Shape, path = ""): string | undefined {
  if (!isObject(value)) return `"${path || "result"}" should be an object`;
  for (const [key, kind] of Object.entries(shape)) {
    const at = path ? `${path}.${key}` : key;
    const item = value[key];
    if (typeof kind !== "string") {
      if (!Array.isArray(item)) return `"${at}" should be an array`;
      for (let i = 0; i < item.length; i++) {
        const found = problem(item[i], kind, `${at}.${i}`);
        if (found) return found;
      }
      continue;
    }
    const optional = kind.endsWith("?");
    if (optional && (item === undefined || item === null)) continue;
    const [label, test] = KINDS[kind[0]];
    if (!test(item)) return `"${at}" should be ${label}`;
  }
  return undefined;
}
